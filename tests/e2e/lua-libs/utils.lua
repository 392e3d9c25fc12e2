-- hashing, base64, rule, util, config and log, on the first request
local hashing = require("suricata.hashing")
local base64 = require("suricata.base64")
local rule = require("suricata.rule")
local util = require("suricata.util")
local config = require("suricata.config")
local logger = require("suricata.log")
function init(args)
    return { payload = true }
end
function match(args)
    local h = hashing.sha256()
    h.update("www.suricata")
    h:update(".io")
    local r = rule.get_rule()
    local class, prio = r:class()
    local t = util.thread_info()
    local ok = hashing.md5_hex_digest("abc") == "900150983cd24fb0d6963f7d28e17f72" and
       hashing.sha1_hex_digest("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d" and
       hashing.sha256_hex_digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" and
       #hashing.sha256_digest("abc") == 32 and
       h.finalize_to_hex() == hashing.sha256_hex_digest("www.suricata.io") and
       base64.encode("hello!?") == "aGVsbG8hPw==" and base64.encode_nopad("hello!?") == "aGVsbG8hPw" and
       base64.decode("aGVsbG8hPw==") == "hello!?" and base64.decode_nopad("aGVsbG8hPw") == "hello!?" and
       base64.decode("aGVsbG8hPw") == nil and base64.decode_nopad("aGVsbG8hPw==") == nil and
       r:sid() == 3 and r:gid() == 1 and r:rev() == 7 and r:action() == "alert" and
       r:msg() == "lua utils" and class == "misc-activity" and prio == 3 and
       t.id > 0 and type(t.name) == "string" and type(config.log_path()) == "string"
    if ok then
        logger.notice("lua utils: all checks held")
        return 1
    end
    return 0
end
