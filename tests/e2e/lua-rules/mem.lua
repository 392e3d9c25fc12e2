-- grows a string past security.lua.max-bytes: the call fails, no match
function init(args) return {packet = true} end
function match(args)
    local t = {}
    for i = 1, 100000 do t[i] = string.rep("x", 64) .. i end
    return 1
end
