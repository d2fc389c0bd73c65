loads = (loads or 0) + 1
local M = {loads = loads}
function M.greet(who) return "hello, " .. who end
return M
