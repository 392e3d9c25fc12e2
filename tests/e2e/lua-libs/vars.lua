-- flowint and flowvar: count the flow's packets, keep a string beside
local flowint = require("suricata.flowint")
local flowvar = require("suricata.flowvar")
function init(args)
    flowint.register("lua_pkts")
    flowvar.register("lua_seen")
    return {}
end
function thread_init()
    pkts = flowint.get("lua_pkts")
    seen = flowvar.get("lua_seen")
end
function match(args)
    local n = pkts:incr()
    if n == 1 then
        seen:set("first", 5)
    end
    -- the third packet of the flow, having read back the first's string
    if n == 3 and seen:value() == "first" and pkts:value() == 3 then
        return 1
    end
    return 0
end
