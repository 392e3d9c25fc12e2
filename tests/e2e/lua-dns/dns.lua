-- suricata.dns with the dns.rrname need: the answered query only
local dns = require("suricata.dns")
function init(args)
    return { ["dns.rrname"] = true }
end
function match(args)
    local q = dns.queries()
    local a = dns.answers()
    if args["dns.rrname"] == "www.example.com" and dns.rrname() == "www.example.com" and
       dns.txid() == 4369 and dns.rcode() == 0 and dns.rcode_string() == "NOERROR" and
       dns.recursion_desired() == true and q[1].type == "A" and
       a ~= nil and #a == 1 and a[1].rrname == "www.example.com" and a[1].type == "A" and
       a[1].ttl == 300 and a[1].addr == "93.184.216.34" and #dns.authorities() == 0 then
        return 1
    end
    return 0
end
