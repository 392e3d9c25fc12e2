-- suricata.tls and suricata.ja3 on the server's certificate
local tls = require("suricata.tls")
local ja3 = require("suricata.ja3")
function init(args)
    ja3.enable_ja3()
    return { tls = true }
end
function match(args)
    local t, err = tls.get_tx()
    if t == nil then return 0 end
    local version, subject, issuer, fp = t:get_server_cert_info()
    local chain = t:get_server_cert_chain()
    local j = ja3.get_tx()
    if t:get_sni() == "example.com" and t:get_client_version() == "TLS 1.2" and
       version == "TLS 1.2" and subject:find("CN=www.example.org$") and
       issuer == "C=US, O=DigiCert Inc, CN=DigiCert SHA2 Secure Server CA" and
       fp == "7b:b6:98:38:69:70:36:3d:29:19:cc:57:72:84:69:84:ff:d4:a8:89" and
       t:get_server_serial() == "0F:D0:78:DD:48:F1:A2:BD:4D:0F:2B:A9:6B:60:38:FE" and
       t:get_server_cert_not_before() == 1543363200 and
       t:get_server_cert_not_after() == 1606910400 and
       #chain == 3 and chain[1].length == #chain[1].data and
       t:get_client_cert_info() == nil and
       j:ja3_get_hash() == "1fe4c7a3544eb27afec2adfb3a3dbf60" and
       j:ja3s_get_hash() == "5d79edf64e03689ff559a54e9d9487bc" and
       #j:ja3_get_string() > 0 then
        return 1
    end
    return 0
end
