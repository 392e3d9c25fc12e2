-- suricata.flow and suricata.packet on an HTTP transaction
local flow = require("suricata.flow")
local packet = require("suricata.packet")
function init(args)
    return { ["http.response_body"] = true }
end
function match(args)
    local f = flow.get()
    local ipver, src, dst, proto, sp, dp = f:tuple()
    local alproto = f:app_layer_proto()
    local tsp, tsb, tcp, tcb = f:stats()
    local ss, ls, su, lu = f:timestamps()
    local p = packet.get()
    local psec, pusec = p:timestamp()
    if ipver == 4 and proto == 6 and dp == 80 and alproto == "http" and
       tsp > 0 and tcp > 0 and tsb > 0 and tcb > 0 and ss > 0 and ls >= ss and
       f:id() > 0 and type(f:has_alerts()) == "boolean" and
       f:timestring_iso8601():match("^%d%d%d%d%-%d%d%-%d%dT%d%d:%d%d:%d%d%.%d%d%d%d%d%d[+-]%d%d%d%d$") and
       f:timestring_legacy():match("^%d%d/%d%d/%d%d%d%d%-%d%d:%d%d:%d%d%.%d%d%d%d%d%d$") and
       psec >= ss and p:pcap_cnt() > 0 and args["http.response_body"] ~= nil then
        return 1
    end
    return 0
end
