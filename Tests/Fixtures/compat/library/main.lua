-- A small library written the way popular pure-Lua libraries are: a module table, local
-- helpers, varargs, metatables, closures, string building, sorting and coroutines.
local M = {}
local function serialize(v, seen)
  seen = seen or {}
  local t = type(v)
  if t == "table" then
    if seen[v] then return "<cycle>" end
    seen[v] = true
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
    local parts = {}
    for _, k in ipairs(keys) do parts[#parts + 1] = tostring(k) .. "=" .. serialize(v[k], seen) end
    return "{" .. table.concat(parts, ",") .. "}"
  elseif t == "string" then
    return string.format("%q", v)
  end
  return tostring(v)
end
M.serialize = serialize
function M.map(f, ...) local out = {} for i = 1, select("#", ...) do out[i] = f((select(i, ...))) end return out end
local Stack = setmetatable({}, {__call = function(cls) return setmetatable({n = 0}, cls) end})
Stack.__index = Stack
Stack.__len = function(s) return s.n end
function Stack:push(x) self.n = self.n + 1 self[self.n] = x end
function Stack:pop() local x = self[self.n] self[self.n] = nil self.n = self.n - 1 return x end
local s = Stack()
for i = 1, 5 do s:push(i * i) end
print("stack", #s, s:pop(), #s)
print(serialize({b = 2, a = {1, 2, "three"}, c = true}))
print(table.concat(M.map(function(x) return x * 2 end, 1, 2, 3), " "))
local gen = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end end)
print("coroutine", gen(), gen(), gen())
local t = {} for i = 1, 1000 do t[i] = (i * 37) % 101 end
table.sort(t)
print("sorted", t[1], t[500], t[1000], table.unpack(t, 1, 3))
table.insert(t, 1, -1) table.remove(t, 2)
print("moved", table.move({1, 2, 3}, 1, 3, 2)[3], t[1])
print("utf8", utf8.len("héllo"), utf8.char(72, 233), #("x"):rep(3, ","))
print("math", math.type(1), math.type(1.0), math.tointeger(3.0), 7 // 2, 7 % -3)
print("os", type(os.time()), os.date("!%Y-%m-%d", 0))
