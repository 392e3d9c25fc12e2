-- streaming http (8.0's {streaming = "http"}): the bodies, with their tx
local config = require("suricata.config")
function init(args)
    return { streaming = "http" }
end
function setup(args)
    out = assert(io.open(config.log_path() .. "/http-bodies.log", "w"))
end
function log(args)
    local s = args["stream"]
    out:write(string.format("tx %d %s open %s close %s [%s]\n", args["tx_id"],
        s.toserver and "toserver" or "toclient", tostring(s.open), tostring(s.close), s.data))
end
function deinit(args)
    out:close()
end
