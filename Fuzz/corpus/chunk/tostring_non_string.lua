return setmetatable({}, {__tostring = function() return 12 end})
