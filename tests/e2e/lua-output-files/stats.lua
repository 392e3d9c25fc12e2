-- the stats table at each stats record: the last one has the run's totals
local config = require("suricata.config")
function init(args)
    return { type = "stats" }
end
function setup(args)
    out = assert(io.open(config.log_path() .. "/lua-stats.log", "w"))
    calls = 0
end
function log(args)
    calls = calls + 1
    for _, c in ipairs(args) do
        if c.name == "decoder.pkts" or c.name == "app_layer.flow.http" then
            out:write(string.format("%s %s %d %d\n", c.name, c.tmname, c.value, c.pvalue))
        end
    end
end
function deinit(args)
    out:write("records " .. calls .. "\n")
    out:close()
end
