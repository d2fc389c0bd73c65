print(xpcall(error, function(m) error('handler ' .. tostring(m)) end, 'x'))
print(xpcall(function() local function r() return r() + 1 end return r() end, debug and debug.traceback or tostring))
