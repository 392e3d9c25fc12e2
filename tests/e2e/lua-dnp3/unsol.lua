-- an unsolicited response carrying analog input 0 or 2 at 198
local dnp3 = require("suricata.dnp3")
function init(args)
    return {}
end
function match(args)
    local tx = dnp3.get_tx()
    if tx.is_request or tx.response == nil then
        return 0
    end
    local r = tx.response
    if r.application_header.function_code ~= 130 or r.indicators ~= 0 then
        return 0
    end
    for _, o in ipairs(r.objects) do
        if o.group == 32 and o.variation == 1 then
            for _, p in ipairs(o.points) do
                if p.value == 198 and p.online == 1 then
                    return 1
                end
            end
        end
    end
    return 0
end
