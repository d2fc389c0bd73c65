do local x <close> = setmetatable({}, {__close = function(_, e) error('close: ' .. tostring(e)) end})
error('body') end
