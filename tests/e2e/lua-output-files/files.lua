-- a file log: one line per file, once it is over, with its transaction
local config = require("suricata.config")
local filelib = require("suricata.file")
local http = require("suricata.http")
function init(args)
    return { type = "file" }
end
function setup(args)
    out = assert(io.open(config.log_path() .. "/lua-files.log", "w"))
end
function log(args)
    local file, err = filelib.get_file()
    local tx = http.get_tx()
    out:write(string.format("%d %d %s %d [%s] %s %s %s %s %s %s\n", file:file_id(), file:tx_id(),
        file:name(), file:size(), tostring(file:magic()), tostring(file:md5()),
        tostring(file:sha1()), tostring(file:sha256()), file:get_state(),
        tostring(file:is_stored()), tx:request_uri_raw()))
end
function deinit(args)
    out:close()
end
