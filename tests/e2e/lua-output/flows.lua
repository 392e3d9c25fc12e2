-- a flow log at each flow's end
local config = require("suricata.config")
local flow = require("suricata.flow")
function init(args)
    return { type = "flow" }
end
function setup(args)
    file = assert(io.open(config.log_path() .. "/lua-flows.log", "w"))
end
function log(args)
    local f = flow.get()
    local ipver, src, dst, proto, sp, dp = f:tuple()
    local tsp, tsb, tcp, tcb = f:stats()
    file:write(string.format("%s:%d -> %s:%d proto %d pkts %d/%d bytes %d/%d %s\n", src, sp, dst,
        dp, proto, tsp, tcp, tsb, tcb, tostring(f:has_alerts())))
end
function deinit(args)
    file:close()
end
