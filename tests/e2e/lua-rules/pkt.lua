local packet = require("suricata.packet")
function init(args)
    return {}
end
function match(args)
    local p = packet.get()
    local ipver, src, dst, proto, sp, dp = p:tuple()
    if proto == 6 and dp == 80 and #p:payload() > 0 then
        return 1
    end
    return 0
end
