local function deep(n) if n == 0 then error('bottom') end return host_call(deep, n - 1) end
return host_echo(pcall(deep, 50))
