import Lua

/// Case 8: what sealing the sandbox costs, and how fast a stop lands.
///
/// 8a–8e run ordinary scripts in a sandbox (where the string, table and load functions are
/// the sandbox's own, polled versions, and finalizers are deferred) against the same
/// scripts with liblua's stock functions (`LuaLibraries.safe`, no sandbox). 8f–8n time,
/// for each long C call the sandbox bounds, how long after a 50 ms deadline the call
/// returns with `.timeout` (the target is 100 ms).
struct SandboxCases {
  let repetitions: Int

  static let scripts: [(name: String, code: String)] = [
    (
      "8a. string-heavy: gsub/find/match/gmatch/rep over 1 MiB",
      """
      local s = ('lorem ipsum dolor sit amet, '):rep(40000)
      local n = 0
      for w in s:gmatch('%a+') do n = n + 1 end
      local squeezed = s:gsub('%s+', ' ')
      local a, b = s:find('amet', 1, true)
      local trimmed = ('  ' .. s .. '  '):match('^%s*(.-)%s*$')
      local parts = {}
      for i = 1, 2000 do parts[i] = ('x'):rep(i % 50) .. string.format('%d', i) end
      return n + #squeezed + a + #trimmed + #table.concat(parts, ',')
      """
    ),
    (
      "8b. table-heavy: insert/remove/concat/sort/move on 200,000 elements",
      """
      local t = {}
      for i = 1, 200000 do table.insert(t, (i * 7919) % 100003) end
      table.sort(t)
      local u = table.move(t, 1, #t, 1, {})
      for i = 1, 1000 do table.insert(u, 1, i) table.remove(u, 1) end
      for i = 1, 100000 do table.remove(u) end
      local strings = {}
      for i = 1, 50000 do strings[i] = tostring(i) end
      return #table.concat(strings, ' ') + #u + t[1]
      """
    ),
    (
      "8c. sort with a comparator, 100,000 records",
      """
      local r = {}
      for i = 1, 100000 do r[i] = {key = (i * 7919) % 100003} end
      table.sort(r, function(a, b) return a.key < b.key end)
      return r[1].key
      """
    ),
    (
      "8d. load: compile a 300 KB chunk",
      """
      local lines = {}
      for i = 1, 10000 do lines[i] = 'v' .. (i % 150) .. ' = ' .. i .. ' + ' .. i end
      local f = assert(load(table.concat(lines, '\\n')))
      return 1
      """
    ),
    (
      "8e. objects with __gc: 100,000 made and collected",
      """
      local mt = {__gc = function(self) end}
      local n = 0
      for i = 1, 100000 do n = n + #setmetatable({i}, mt) end
      collectgarbage()
      return n
      """
    ),
  ]

  static let stops: [(name: String, code: String)] = [
    ("8f. stop latency: backtracking find", "return ('a'):rep(150):find('.-.-.-.-b')"),
    ("8g. stop latency: gsub replacement work", "return ('x'):rep(1e5):gsub('', ('%0'):rep(1e5))"),
    (
      "8h. stop latency: gmatch with a literal ^",
      "for m in ('^a'):rep(2e4):gmatch('^a.-.-.-.-b') do end"
    ),
    ("8i. stop latency: table.move of 2^62 slots", "table.move({}, 1, math.maxinteger - 1, 2)"),
    (
      "8j. stop latency: table.insert with a huge __len",
      "table.insert(setmetatable({}, {__len = function() return 1e15 end}), 1, 1)"
    ),
    ("8k. stop latency: string.rep, 4e8 bytes", "return #string.rep('x', 4e8)"),
    (
      "8l. stop latency: load of a quadratic chunk",
      "local s = {'local x'} for i = 1, 30000 do s[#s + 1] = 'goto l' .. i end for i = 1, 30000 do s[#s + 1] = '::l' .. i .. ':: x = 1' end return load(table.concat(s, ' '))"
    ),
    (
      "8m. stop latency: __close handler run by coroutine.close",
      "local co = coroutine.create(function() local x <close> = setmetatable({}, {__close = function() while true do end end}) coroutine.yield() end) coroutine.resume(co) coroutine.close(co)"
    ),
    (
      "8n. stop latency: a finalizer run by collectgarbage",
      "setmetatable({}, {__gc = function() while true do end end}) collectgarbage()"
    ),
  ]

  func run() throws -> [Row] {
    var sandbox = LuaSandbox()
    sandbox.memoryLimit = nil
    sandbox.timeout = nil
    sandbox.output = { _ in }
    let sealed = try LuaState(sandbox: sandbox)
    let stock = try LuaState(libraries: .safe)
    var rows: [Row] = []
    for script in Self.scripts {
      let ours = try sealed.load(script.code, name: "=bench")
      let theirs = try stock.load(script.code, name: "=bench")
      let times: [Double]
      do {
        times = try Measure.interleaved(
          repetitions: repetitions,
          [{ try Self.time { try ours.call() } }, { try Self.time { try theirs.call() } }])
      } catch {
        throw BenchError("\(script.name): \(error)")
      }
      rows.append(
        Row(
          name: script.name, ours: times[0], baseline: times[1], target: 1.1,
          targetText: "≤ 1.1×"))
    }
    let deadline = 50_000_000.0
    var limited = LuaSandbox()
    limited.memoryLimit = 1 << 30
    limited.timeout = .nanoseconds(Int64(deadline))
    limited.output = { _ in }
    let stopped = try LuaState(sandbox: limited)
    for stop in Self.stops {
      let chunk = try stopped.load(stop.code, name: "=stop")
      var late: [Double] = []
      for _ in 0..<max(3, repetitions / 2) {
        let start = Measure.now()
        do {
          try chunk.call()
          throw BenchError("\(stop.name): ran to the end")
        } catch let error as LuaError where error.kind == .timeout {
          late.append(max(Double(Measure.now() - start) - deadline, 0))
        } catch {
          throw BenchError("\(stop.name): \(error)")
        }
      }
      rows.append(
        Row(
          name: stop.name + " (after the 50 ms deadline)", ours: Measure.median(late),
          baseline: 100_000_000, target: 1, targetText: "≤ 100 ms", isPromise: true))
    }
    return rows
  }

  static func time(_ body: () throws -> Void) throws -> Double {
    let start = Measure.now()
    try body()
    return Double(Measure.now() - start)
  }
}
