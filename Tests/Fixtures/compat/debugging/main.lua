-- Logging and argument-checking code reads the stack with debug.traceback and getinfo.
local function where(level)
  local info = debug.getinfo(level + 1, "Sl")
  return info.short_src .. ":" .. info.currentline
end
print("called from", where(1))
local function handler(e)
  return debug.traceback("handled: " .. tostring(e), 2)
end
local function fail() error("boom") end
local ok, trace = xpcall(fail, handler)
print(ok)
print(trace)
local function named() return debug.getinfo(1, "n").name end
print("name", named())
print("what", debug.getinfo(print).what, debug.getinfo(fail, "S").linedefined)
-- setfenv, as template engines emulate it: load with an environment
local template = load("return greeting .. ', ' .. name", "template", "t", {greeting = "hi", name = "you"})
print(template())
print("nil env", pcall(load("return x", "=noenv", "t", nil)))
print("binary refused", load("return 1", "=t", "b"))
print("xpcall needs a handler", pcall(xpcall, print, nil))
