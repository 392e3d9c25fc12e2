-- suricata.smtp: the envelope and the MIME header fields
local smtp = require("suricata.smtp")
function init(args)
    return { smtp = true }
end
function match(args)
    local t = smtp.get_tx()
    local rcpt = t:get_rcpt_list()
    local names = t:get_mime_list()
    if t:get_mail_from() == "<alice@example.com>" and #rcpt == 2 and
       rcpt[1] == "<bob@example.org>" and rcpt[2] == "<carol@example.org>" and
       t:get_mime_field("Subject") == "quarterly report" and
       t:get_mime_field("X-Not-There") == nil and #names == 7 then
        return 1
    end
    return 0
end
