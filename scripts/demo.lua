-- A tour of what luahost reports: values, a caught error, and where an error came from.
local function describe(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  return "{" .. table.concat(keys, ", ") .. "}"
end

print("Hello from " .. _VERSION .. " inside LuaHost")
print("fields of string:", describe(string):sub(1, 60) .. "…")

local ok, err = pcall(function() error({ code = 404, reason = "not found" }) end)
print("pcall caught a table error:", ok, err.code, err.reason)

local ok2, err2 = pcall(function() local t = nil; return t.field end)
print("pcall caught:", err2)

print("arguments:", ...)
