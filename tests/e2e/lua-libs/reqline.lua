-- a request_line need: the script runs as the request line is inspected,
-- on the request's side (Suricata 8 registers it on that buffer)
local http = require("suricata.http")
function init(args)
    return { ["http.request_line"] = true }
end
function match(args)
    local tx = http.get_tx()
    if args["http.request_line"] == "GET /split-response HTTP/1.1" and
       tx:request_line() == args["http.request_line"] then
        return 1
    end
    return 0
end
