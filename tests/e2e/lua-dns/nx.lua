-- a protocol need without a buffer: the NXDOMAIN answer
local dns = require("suricata.dns")
function init(args)
    return { ["dns.response"] = true }
end
function match(args)
    if dns.rcode_string() == "NXDOMAIN" and dns.rrname() == "nothere.example.org" and
       dns.queries()[1].type == "AAAA" then
        return 1
    end
    return 0
end
