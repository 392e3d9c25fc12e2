-- a script that fails at run time: counted, never a match, no crash
function init(args)
    return {}
end
function match(args)
    local t = nil
    return t.field
end
