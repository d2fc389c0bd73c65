local mt = {__index = function(t, k) error('index ' .. k) end, __eq = function() error('eq') end,
  __lt = function() error('lt') end, __concat = function() error('cat') end, __len = function() error('len') end}
local a, b = setmetatable({}, mt), setmetatable({}, mt)
print(pcall(function() return a.x end), pcall(function() return a == b end), pcall(function() return a < b end))
return a, b
