function init(args)
    local needs = {}
    needs["payload"] = tostring(true)
    return needs
end
function match(args)
    local p = args["payload"]
    if p and p:find("HTTP/1.1 200", 1, true) then
        return 1
    end
    return 0
end
