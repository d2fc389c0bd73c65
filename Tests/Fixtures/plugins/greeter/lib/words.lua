local M = {}
function M.hello(who) return "hello, " .. who end
return M
