-- suricata.ssh with the ssh.server_software need
local ssh = require("suricata.ssh")
function init(args)
    local needs = {}
    needs["ssh.server_software"] = tostring(true)
    return needs
end
function match(args)
    local t = ssh.get_tx()
    if args["ssh.server_software"] == "OpenSSH_9.2p1" and t:server_proto() == "2.0" and
       t:client_proto() == "2.0" and t:client_software() == "PuTTY_Release_0.78" and
       t:server_software() == "OpenSSH_9.2p1" then
        return 1
    end
    return 0
end
