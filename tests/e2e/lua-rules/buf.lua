function init(args)
    return {buffer = true}
end
function match(args)
    return #args["buffer"] > 0 and args["buffer"]:sub(1,1) == "/" and 1 or 0
end
