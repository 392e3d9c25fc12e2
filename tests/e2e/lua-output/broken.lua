-- a packet logger that fails on every call: counted, the run goes on
function init(args)
    return { type = "packet" }
end
function log(args)
    error("broken on purpose")
end
