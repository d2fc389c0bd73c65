-- A differential transcript: generated calls of every function the sandbox reimplements
-- (the matcher, rep, concat/insert/remove/move/sort, os.date, load) and of the top level's
-- coroutine view, each result serialized. DifferentialTests runs this file through
-- `luahost` (sandboxed: the shim's functions, the main chunk as a driven coroutine) and
-- `luahost --trusted` (liblua's own) and compares the transcripts byte for byte.
-- Usage: luahost stock.lua [SEED [COUNT]]
local seed, count = tonumber(arg[1]) or 1, tonumber(arg[2]) or 2000
math.randomseed(seed)
local random = math.random

local out = {}
local function show(v)
  local t = type(v)
  if t == "string" then return string.format("%q", v) end
  if t == "number" then return math.type(v) == "integer" and tostring(v) or string.format("%.17g", v) end
  if t == "table" then
    local parts = {}
    for i = 1, #v do parts[i] = show(v[i]) end
    return "{" .. table.concat(parts, ",") .. "}"
  end
  return t == "nil" and "nil" or t == "boolean" and tostring(v) or t
end
local function record(label, ok, ...)
  local parts = {label, ok and "ok" or "error"}
  for i = 1, select("#", ...) do parts[#parts + 1] = show((select(i, ...))) end
  out[#out + 1] = table.concat(parts, " ")
end
local function try(label, f) record(label, pcall(f)) end

-- Patterns from a grammar: every class and its upper case, sets with ranges and classes,
-- %b, %f, anchors, captures, position captures, back-references, and malformed pieces.
local classes = {"a", "c", "d", "g", "l", "p", "s", "u", "w", "x", "z"}
local literals = {"a", "b", "x", "\0", "\255", "(", ")", ".", "%", "-", "]", "^", "$", " "}
local function class() local c = classes[random(#classes)] return "%" .. (random(2) == 1 and c or c:upper()) end
local function set()
  local parts = {random(3) == 1 and "^" or ""}
  for _ = 1, random(3) do
    local r = random(4)
    parts[#parts + 1] = r == 1 and "a-f" or r == 2 and class() or r == 3 and "\0-\31" or literals[random(#literals)]
  end
  return "[" .. table.concat(parts) .. (random(12) == 1 and "" or "]")
end
local function item()
  local r = random(10)
  local single = r <= 2 and class() or r <= 4 and set() or r == 5 and "." or literals[random(#literals)]
  if r == 6 then return "%b" .. literals[random(#literals)] .. literals[random(#literals)] end
  if r == 7 then return "%f" .. set() end
  if r == 8 then return "%" .. random(0, 3) end
  local quantifiers = {"", "", "*", "+", "-", "?"}
  return single .. quantifiers[random(#quantifiers)]
end
local function pattern(depth)
  local parts = {random(4) == 1 and "^" or ""}
  for _ = 1, random(0, 4) do
    local r = random(8)
    if r == 1 and depth < 2 then parts[#parts + 1] = "(" .. pattern(depth + 1) .. ")"
    elseif r == 2 then parts[#parts + 1] = "()"
    else parts[#parts + 1] = item() end
  end
  if random(6) == 1 then parts[#parts + 1] = "$" end
  if random(40) == 1 then parts[#parts + 1] = random(2) == 1 and "%" or "(" end
  return table.concat(parts)
end
local alphabet = {"a", "b", "x", "z", "A", "1", " ", "\0", "\255", "\200", "(", ")", "%", ".", "\n"}
local function subject()
  local parts = {}
  for i = 1, random(0, 12) do parts[i] = alphabet[random(#alphabet)] end
  return table.concat(parts)
end
local function init() local r = random(6) return r == 1 and nil or r == 2 and -random(15) or r == 3 and math.mininteger or random(0, 15) end

for i = 1, count do
  local s, p = subject(), pattern(0)
  local kind = random(5)
  if kind == 1 then
    local a, plain = init(), random(4) == 1
    try("find", function() return string.find(s, p, a, plain) end)
  elseif kind == 2 then
    local a = init()
    try("match", function() return s:match(p, a) end)
  elseif kind == 3 then
    try("gmatch", function()
      local found = {}
      for a, b in s:gmatch(p) do
        found[#found + 1] = {a, b}
        if #found > 50 then break end
      end
      return found
    end)
  elseif kind == 4 then
    local r = random(5)
    local repl = r == 1 and "<%0%1>" or r == 2 and {a = "A", x = false, ["\0"] = 1}
      or r == 3 and function(c) return c == "a" and {} or c end
      or r == 4 and "%" .. random(0, 9) or "%%"
    local n = random(3) == 1 and random(-1, 3) or nil
    try("gsub", function() return s:gsub(p, repl, n) end)
  else
    local r = random(3)
    if r == 1 then try("rep", function() return string.rep(s, random(-1, 4), random(2) == 1 and p or nil) end)
    elseif r == 2 then try("format", function() return string.format("%q", s) end)
    else try("byte", function() return s:byte(init(), init()) end) end
  end
end

-- The table functions, with positions and counts at the integer limits.
local max, min = math.maxinteger, math.mininteger
local positions = {min, min + 1, -1, 0, 1, 2, 3, 4, 5, max - 1, max}
for _, a in ipairs(positions) do
  try("insert " .. a, function() local t = {1, 2, 3} table.insert(t, a, "x") return t end)
  try("remove " .. a, function() local t = {1, 2, 3} return table.remove(t, a), t end)
  try("concat " .. a, function() return table.concat({1, "b", 3}, ",", a, 3) end)
  for _, b in ipairs({min, -1, 1, 3, max}) do
    -- (a valid range of 2^62 slots would run as long under both: left out)
    if a <= 0 or b - a <= 10 then
      try("move " .. a .. " " .. b, function() return table.move({1, 2, 3}, a, b, 2, {}) end)
    end
    try("move to " .. a .. " " .. b, function() return table.move({1, 2, 3}, 1, 3, a, {}) end)
  end
end
try("insert arity", function() table.insert({}, 1, 2, 3) end)
try("concat bad", function() return table.concat({1, {}, 3}) end)
try("sort", function() local t = {5, 2, 8, 1} table.sort(t, function(x, y) return x > y end) return t end)
try("sort bad", function() table.sort({1, "x", 2}) end)
try("remove #1", function() return table.remove({}, 5) end)
-- os.date at a fixed time, with good and bad conversions.
for _, format in ipairs({"!%Y-%m-%d %H:%M:%S", "!%c", "!*t", "!%x|%X|%p|%j", "%Ez", "%Q", "!%", "!%5"}) do
  try("date " .. format, function()
    local v = os.date(format, 86400 * 400)
    if type(v) == "table" then return v.year, v.month, v.day, v.hour, v.isdst end
    return v
  end)
end
try("date bad time", function() return os.date("%Y", 2^63) end)
-- load: text chunks, readers, modes and errors.
try("load text", function() return load("return 1 + 1")() end)
try("load syntax", function() return load("return +") end)
try("load reader", function()
  local parts = {"return ", "'pie", "ces'"}
  return load(function() return table.remove(parts, 1) end)()
end)
try("load mode", function() return load("return 1", "x", "b") end)
try("load env", function() local f = load("return x", "=c", "t", {x = 42}) return f() end)
-- The top level is the main thread, as under lua5.4.
record("running", true, select(2, coroutine.running()), coroutine.isyieldable())
record("yield", pcall(coroutine.yield, 1))
record("status", true, coroutine.status(coroutine.running()))

io = io or {write = nil}
print(table.concat(out, "\n"))
