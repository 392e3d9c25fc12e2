-- an HTTP log: one line per transaction, in its own file
local config = require("suricata.config")
local http = require("suricata.http")
local packet = require("suricata.packet")
function init(args)
    return { protocol = "http" }
end
function setup(args)
    file = assert(io.open(config.log_path() .. "/lua-http.log", "w"))
    count = 0
end
function log(args)
    local tx = http.get_tx()
    local ipver, src, dst, proto, sp, dp = packet.get():tuple()
    file:write(string.format("%s %s %s %s -> %s %s\n", tx:request_line(), tx:request_host(),
        tostring(tx:response_line()), src, dst, tostring(tx:response_header("Content-Length"))))
    count = count + 1
end
function deinit(args)
    file:write("transactions: " .. count .. "\n")
    file:close()
end
