-- suricata.bytevar: the rule's byte_extract variable ("GET" -> 'G' = 71)
local bytevar = require("suricata.bytevar")
function init(sig)
    bytevar.map(sig, "first")
    return { payload = true }
end
function thread_init()
    first = bytevar.get("first")
end
function match(args)
    if first:value() == 71 then
        return 1
    end
    return 0
end
