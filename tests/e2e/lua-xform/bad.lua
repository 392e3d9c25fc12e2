-- luaxform that fails: the buffer stays as it was
function transform(input, args)
    error("no")
end
