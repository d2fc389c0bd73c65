local co = coroutine.wrap(function(...) coroutine.yield(...) error('in coroutine') end)
co(1, 2)
co()
