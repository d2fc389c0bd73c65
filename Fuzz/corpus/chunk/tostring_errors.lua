local t = setmetatable({}, {__tostring = function() error('bad tostring') end})
print(pcall(tostring, t))
error(t)
