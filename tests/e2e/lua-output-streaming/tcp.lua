-- streaming tcp: each direction's bytes into a file of its own, and a
-- summary of the calls
local config = require("suricata.config")
local flow = require("suricata.flow")
function init(args)
    return { type = "streaming", filter = "tcp" }
end
function setup(args)
    path = config.log_path()
    calls, opens, closes, same = 0, 0, 0, 0
end
function log(args)
    local s = args["stream"]
    local ipver, src, dst, proto, sp, dp = flow.get():tuple()
    local name = path .. "/tcp-" .. (s.to_server and "ts" or "tc") .. "-" .. sp .. "-" .. dp
    local f = assert(io.open(name, s.open and "w" or "a"))
    f:write(s.data)
    f:close()
    calls = calls + 1
    -- 8.0's global gives the same chunk: data, open, close, toserver, toclient
    local data, open, close, ts, tc = SCStreamingBuffer()
    if data == s.data and open == s.open and close == s.close and ts == s.to_server and
        tc == s.to_client then
        same = same + 1
    end
    if s.open then opens = opens + 1 end
    if s.close then closes = closes + 1 end
end
function deinit(args)
    local f = assert(io.open(path .. "/tcp-calls.log", "w"))
    f:write(string.format("calls %d opens %d closes %d same %d\n", calls, opens, closes, same))
    f:close()
end
