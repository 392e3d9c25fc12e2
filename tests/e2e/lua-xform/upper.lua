-- luaxform: uppercase the buffer from "offset N" on (default 0)
function transform(input, args)
    local offset = 0
    for i, item in ipairs(args) do
        local v = item:match("^offset%s+(%d+)$")
        if v then offset = tonumber(v) end
    end
    if offset > #input then
        return nil
    end
    local out = string.upper(string.sub(input, offset + 1))
    return out, #out
end
