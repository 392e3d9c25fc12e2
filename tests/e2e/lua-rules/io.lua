-- the sandbox has no io library: the call fails, no match
function init(args) return {packet = true} end
function match(args)
    local f = io.open("/etc/passwd")
    return 1
end
