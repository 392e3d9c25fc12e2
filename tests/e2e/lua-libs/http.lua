-- suricata.http and a transaction buffer need (8.0's form): the script
-- runs when the response body is inspected, the request there too
local http = require("suricata.http")
function init(args)
    local needs = {}
    needs["http.response_body"] = tostring(true)
    return needs
end
function match(args)
    local tx, err = http.get_tx()
    if tx == nil then return 0 end
    local h = tx:request_headers()
    local body, first, last = tx:response_body()
    if #args["http.response_body"] == 40 and
       tx:request_line() == "GET /split-response HTTP/1.1" and
       tx:response_line() == "HTTP/1.1 200 OK" and
       tx:request_host() == "split.example" and
       tx:request_header("user-agent") == "split/1.0" and
       tx:request_uri_raw() == "/split-response" and
       tx:request_uri_normalized() == "/split-response" and
       h["Host"] == "split.example" and
       tx:request_headers_raw():find("User%-Agent: split/1.0\r\n") and
       body ~= nil and #body[1] == 40 and first == 0 and last == 40 then
        return 1
    end
    return 0
end
