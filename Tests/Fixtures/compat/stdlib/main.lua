-- print passes bytes through; warn goes to stderr.
print("bytes \255\254 and a NUL \0 in the middle")
print(1, nil, true, 2.5, "tab")
warn("@on")
warn("this goes to stderr")
print(string.rep("ab", 3, "-"), ("x"):rep(0), ("%d items"):format(3))
print(select("#", table.unpack({1, 2, nil, 4}, 1, 4)))
print(tostring(nil), tonumber("0x10"), tonumber("z", 36), math.floor(-3.5))
print(select(2, pcall(error, {code = 1})).code)
print(select(2, pcall(error, "message", 0)))
-- table.sort of objects with a Lua __lt and no comparator: no C level of the sandbox's in
-- between (an error level, and the depth of sorts nested in __lt, count as stock's)
local lt = {__lt = function(a, b) error("from __lt", 3) end}
print(pcall(function() table.sort({setmetatable({}, lt), setmetatable({}, lt)}) end))
local deepest = 0
local function nest(d)
  deepest = math.max(deepest, d)
  local m = {__lt = function(a, b) nest(d + 1) return a.v < b.v end}
  table.sort({setmetatable({v = 1}, m), setmetatable({v = 2}, m)})
end
print(pcall(nest, 1))
print("deepest", deepest)
local objects = {}
for i = 1, 50 do
  objects[i] = setmetatable({v = (i * 37) % 50}, {__lt = function(a, b) return a.v < b.v end})
end
table.sort(objects)
local order = {}
for i = 1, 50 do order[i] = objects[i].v end
print(table.concat(order, " "))
