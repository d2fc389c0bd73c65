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
-- getinfo's options as liblua checks them: a leading '>' first, a level out of range
-- before the letters, any number of repeated letters
print("getinfo >", pcall(debug.getinfo, 1, ">S"))
print("getinfo > of a function", pcall(debug.getinfo, print, ">S"))
print("getinfo bad letter", pcall(debug.getinfo, 1, "Sq"))
print("getinfo bad letter, no level", pcall(debug.getinfo, 50, "Sq"))
print("getinfo repeats", debug.getinfo(1, string.rep("Sl", 30)).currentline)
print("getinfo empty", next(debug.getinfo(1, "")))
-- error levels inside an xpcall handler count from the handler, as in stock Lua
print(xpcall(function() local t = nil; return t.x end,
             function(m) return select(2, pcall(error, "where?", 3)) end))
print(xpcall(function() error("inner") end, function(m) error("from handler", 2) end))
print(pcall(error, "level 1"), pcall(error, "level 2", 2), pcall(error, "none", 0))
print(pcall(error, "huge level", math.maxinteger), type(select(2, pcall(error, {}, 2))))
