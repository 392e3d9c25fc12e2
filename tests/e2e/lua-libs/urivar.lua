-- a flowint registered by a script in a sticky buffer's list
local flowint = require("suricata.flowint")
function init(args)
    flowint.register("lua_uri")
    return { buffer = true }
end
function match(args)
    local v = flowint.get("lua_uri")
    if args["buffer"] == "/split-response" and v:incr() == 1 then
        return 1
    end
    return 0
end
