function init(args) return {packet = true} end
function match(args) while true do end end
