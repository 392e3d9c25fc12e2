-- a DNS log as 8.0's documentation writes one: dns.get_tx() and its
-- methods, and the globals 8.0 keeps for output scripts (SCLogPath,
-- SCLogNotice); log() runs once per DNS message, as it is logged
local dns = require("suricata.dns")
local flow = require("suricata.flow")

function init(args)
    return { protocol = "dns" }
end

function setup(args)
    SCLogNotice("lua dns log: setup")
    file = assert(io.open(SCLogPath() .. "/lua-dns.log", "w"))
    calls = 0
end

function log(args)
    local tx, err = dns.get_tx()
    local ipver, src, dst, proto, sp, dp = flow.get():tuple()
    local line = string.format("%04x %s", tx:txid(), tostring(tx:rcode_string()))
    for _, q in ipairs(tx:queries() or {}) do
        line = line .. " Q " .. q.rrname .. " " .. q.type
    end
    for _, a in ipairs(tx:answers() or {}) do
        line = line .. " A " .. a.rrname .. " " .. a.type .. " " .. tostring(a.addr)
    end
    file:write(string.format("%s %s:%d -> %s:%d\n", line, src, sp, dst, dp))
    calls = calls + 1
end

function deinit(args)
    file:write("calls: " .. calls .. "\n")
    file:close()
end
