-- a WRITE request of the time (group 50 variation 1), its headers whole
local dnp3 = require("suricata.dnp3")
function init(args)
    return {}
end
function match(args)
    local tx = dnp3.get_tx()
    if not tx.is_request or tx.request == nil or tx.response ~= nil then
        return 0
    end
    local r = tx.request
    local lh, ah = r.link_header, r.application_header
    if r.done and r.complete and ah.function_code == 2 and ah.control == 193 and
       lh.len == 18 and lh.control == 196 and lh.dst == 4 and lh.src == 3 and lh.crc == 31774 and
       r.transport_header == 193 and #r.objects == 1 and r.objects[1].group == 50 and
       r.objects[1].variation == 1 and r.objects[1].points[1].index == 0 and
       r.objects[1].points[1].timestamp > 1097487541000 then
        return 1
    end
    return 0
end
