-- an alert log: the rule of each alert
local config = require("suricata.config")
local rule = require("suricata.rule")
local flow = require("suricata.flow")
function init(args)
    return { type = "packet", filter = "alerts" }
end
function setup(args)
    file = assert(io.open(config.log_path() .. "/lua-alerts.log", "w"))
end
function log(args)
    local r = rule.get_rule()
    local class, prio = r:class()
    local f = flow.get()
    local alproto = f:app_layer_proto()
    file:write(string.format("[%d:%d:%d] %s [%s] prio %d %s\n", r:gid(), r:sid(), r:rev(),
        r:msg(), r:action(), prio, alproto))
end
function deinit(args)
    file:close()
end
