-- The coroutine library against stock: every status a coroutine can be resumed, wrapped,
-- closed or asked about in, with the messages of each refusal. SandboxCompatibilityTests
-- runs this under lua5.4, `luahost` and `luahost --trusted` (both replace liblua's
-- coroutine functions with stop-aware ones) and compares what they print byte for byte.

local function show(label, ...)
  local parts = {}
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    parts[#parts + 1] = type(v) == "string" and string.format("%q", v)
      or type(v) == "table" and "table" or type(v) == "thread" and "thread"
      or type(v) == "function" and "function" or tostring(v)
  end
  print(label, select("#", ...), table.concat(parts, " "))
end

local main = coroutine.running()

-- Resuming in each status.
show("resume main from main", coroutine.resume(main))
show("resume main from a coroutine", coroutine.resume(coroutine.create(function()
  return coroutine.resume(main)
end)))
show("resume self", coroutine.resume(coroutine.create(function()
  return coroutine.resume(coroutine.running())
end)))
show("resume normal (wrap, no arguments)", coroutine.wrap(function()
  local me = coroutine.running()
  return coroutine.wrap(function() return coroutine.resume(me) end)()
end)())
show("resume normal (wrap, arguments)", coroutine.wrap(function(...)
  local me = coroutine.running()
  return coroutine.wrap(function() return coroutine.resume(me, 1, 2) end)()
end)(1, 2, 3))
show("resume normal (resume)", coroutine.resume(coroutine.create(function()
  local me = coroutine.running()
  return coroutine.resume(coroutine.create(function() return coroutine.resume(me) end))
end)))
local finished = coroutine.create(function(...) return ... end)
show("resume fresh", coroutine.resume(finished, 1, nil, 3))
show("resume finished", coroutine.resume(finished))
show("resume finished with arguments", coroutine.resume(finished, 1, 2))
local failed = coroutine.create(function() error("boom") end)
show("resume failing", coroutine.resume(failed))
show("resume failed", coroutine.resume(failed))
local failedTable = coroutine.create(function() error({}) end)
show("resume failing with a table", coroutine.resume(failedTable))
local failedNil = coroutine.create(function() error() end)
show("resume failing with nil", coroutine.resume(failedNil))
show("resume failing at level 0", coroutine.resume(coroutine.create(function() error("x", 0) end)))
local yielder = coroutine.create(function(a)
  local b, c = coroutine.yield(a + 1)
  local d = coroutine.yield(b, c)
  return d, "end"
end)
show("yield 1", coroutine.resume(yielder, 1))
show("yield 2", coroutine.resume(yielder, "b", "c"))
show("yield 3", coroutine.resume(yielder, "d"))
show("yield done", coroutine.resume(yielder))
show("resume a non-coroutine", pcall(coroutine.resume, 1))
show("resume nothing", pcall(coroutine.resume))
show("resume a function", pcall(coroutine.resume, print))

-- Status from everywhere.
show("status main", coroutine.status(main))
show("status finished", coroutine.status(finished))
show("status failed", coroutine.status(failed))
show("status suspended", coroutine.status(coroutine.create(print)))
show("status running", coroutine.wrap(function() return coroutine.status(coroutine.running()) end)())
show("status normal", coroutine.wrap(function()
  local me = coroutine.running()
  return coroutine.wrap(function() return coroutine.status(me) end)()
end)())
show("status main from a coroutine", coroutine.wrap(function() return coroutine.status(main) end)())
show("status of a non-coroutine", pcall(coroutine.status, {}))

-- running and isyieldable.
show("running main", select(2, coroutine.running()), coroutine.isyieldable())
show("running coroutine", coroutine.wrap(function()
  return select(2, coroutine.running()), coroutine.isyieldable()
end)())
show("isyieldable of main", coroutine.isyieldable(main))
show("isyieldable of a coroutine", coroutine.isyieldable(coroutine.create(print)))

-- wrap: errors get positions when they are strings; a dead wrap refuses.
local w = coroutine.wrap(function() return 1 end)
show("wrap once", w())
show("wrap dead", pcall(w))
show("wrap error", pcall(coroutine.wrap(function() error("inner") end)))
show("wrap error level 0", pcall(coroutine.wrap(function() error("inner", 0) end)))
show("wrap error table", pcall(coroutine.wrap(function() error({}) end)))
show("wrap error number", pcall(coroutine.wrap(function() error(42) end)))
show("wrap non-function", pcall(coroutine.wrap, 1))
local ww
ww = coroutine.wrap(function() return ww() end)
show("wrap resumes itself", pcall(ww))
show("wrap yields across pcall", coroutine.wrap(function()
  return pcall(coroutine.yield, "y")
end)())

-- close in each status, with and without pending to-be-closed variables.
show("close suspended", coroutine.close(coroutine.create(print)))
show("close finished", coroutine.close(finished))
show("close failed", coroutine.close(failed))
local closing = coroutine.create(function()
  local x <close> = setmetatable({}, {__close = function() print("closed x") end})
  coroutine.yield()
end)
coroutine.resume(closing)
show("close with a pending variable", coroutine.close(closing))
show("status after close", coroutine.status(closing))
local closeFails = coroutine.create(function()
  local x <close> = setmetatable({}, {__close = function() error("in close", 0) end})
  coroutine.yield()
end)
coroutine.resume(closeFails)
show("close whose variable fails", coroutine.close(closeFails))
show("close running", pcall(coroutine.wrap(function() return coroutine.close(coroutine.running()) end)))
show("close normal", pcall(coroutine.wrap(function()
  local me = coroutine.running()
  return coroutine.wrap(function() return coroutine.close(me) end)()
end)))
show("close main", pcall(coroutine.close, main))
show("close a non-coroutine", pcall(coroutine.close, 1))

-- yield outside a coroutine, and from inside metamethods and iterators.
show("yield in main", pcall(coroutine.yield, 1))
show("yield from __index", coroutine.wrap(function()
  local t = setmetatable({}, {__index = function(_, k) return coroutine.yield(k) end})
  return t.key
end)())
show("yield from a for iterator", coroutine.wrap(function()
  for v in function() return coroutine.yield("iter") end do return v end
end)())
show("yield from table.sort", pcall(coroutine.wrap(function()
  table.sort({3, 2, 1}, function(a, b) coroutine.yield() return a < b end)
end)))
show("yield from string.gsub", pcall(coroutine.wrap(function()
  return string.gsub("ab", ".", function(c) coroutine.yield(c) end)
end)))

-- Deep nesting reaches the C stack's limit the same way.
local function nest(n)
  if n == 0 then return "bottom" end
  return coroutine.wrap(nest)(n - 1)
end
show("nest 50", pcall(nest, 50))
local ok, message = pcall(nest, 300)
show("nest 300", ok, (tostring(message):gsub("^.-:%d+: ", "")))
