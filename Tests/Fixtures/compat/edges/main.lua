#!/usr/bin/env lua
-- A byte order mark and a shebang line start this file, and each module below.
print((require("shebang")), (require("bommod")))

-- require reads the registry's preload table, not whatever package.preload now holds.
local preload = package.preload
package.preload = {swapped = function() return "swapped in" end}
print((pcall(require, "swapped")))
preload.kept = function(name) return "kept " .. name end
print(require("kept"))
package.preload = preload

-- A module that does not compile: the searcher's message, with no position of ours.
local ok, message = pcall(function() local m = require("broken") return m end)
print(ok, message:match("^error loading module 'broken' from file '") ~= nil)

-- Messages as liblua words them.
print(pcall(coroutine.resume, 1))
print(pcall(coroutine.status, {}))
print(pcall(coroutine.close, "x"))
print(pcall(coroutine.isyieldable, 2))
print(pcall(function() coroutine.yield() end))
print(load("\27Lua", "bytes", "t"))

-- Finalizers still pending at the end run newest first, as lua_close runs them, garbage
-- or reachable alike (with the collector stopped, no cycle finds the garbage first).
collectgarbage("stop")
for i = 1, 12 do
  local object = setmetatable({}, {__gc = function() print("gc", i) end})
  if i % 3 ~= 0 then _G["object" .. i] = object end
end
print("end of main")

-- Levels are C ints, as in stock: 2^32 + 1 is level 1.
print(pcall(function() error("m", 2^32 + 1) end))
print((debug.traceback("x", 2^32 + 1)):match("^x\nstack traceback:\n\t[^\n]*"))
print(debug.getinfo(2^32 + 1, "l").currentline)
