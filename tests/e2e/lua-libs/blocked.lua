-- os is not in the sandbox: require fails, counted as blocked
function init(args)
    return {}
end
function match(args)
    local os = require("os")
    return 1
end
