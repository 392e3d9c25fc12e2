-- luaxform: an output longer than its input (each byte twice)
function transform(input, args)
    local out = input:gsub(".", "%0%0")
    return out, #out
end
