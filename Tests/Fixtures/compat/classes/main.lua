-- A class library whose instances declare __gc, as many do for resources.
local Class = {}
Class.__index = Class
Class.__gc = function(self) print("release", self.name) end
Class.__tostring = function(self) return "Resource(" .. self.name .. ")" end
function Class.new(name) return setmetatable({name = name}, Class) end

local a = Class.new("a")
Class.new("b")
Class.new("c")
collectgarbage()
print("after the first collection", tostring(a))
a = nil
collectgarbage()
collectgarbage("step", 0)
print("is running", collectgarbage("isrunning"))
collectgarbage("stop")
print("stopped", collectgarbage("isrunning"))
collectgarbage("restart")
print("count is a number", type(collectgarbage("count")))
print("generational", collectgarbage("generational"))
print("incremental", collectgarbage("incremental"))
local kept = Class.new("kept until exit")
print("end of script")
