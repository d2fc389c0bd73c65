import Lua
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The sandbox's sealing (issue "Seal the sandbox"), one suite per class of weakness. Every
/// case here ran past its limit, or outgrew its memory, before the fix.
///
/// Where a limit must stop code, no verdict reads a clock: the code would run for minutes
/// (most of it for hours) if nothing stopped it, so the kind of the error says that the
/// limit stopped it, and a stop that does not come is a hang, which the time limit fails.
// A hang guard, not a speed check: under ThreadSanitizer, with every suite in parallel on
// two cores, a test may wait minutes for a thread (CI saw 3 minutes run out).
//
// The state's own deadline is a minute, for code that must run to its end; a call that only
// a deadline can end runs under `shortDeadline` (`expectStop` with `.timeout`, and
// `underShortDeadline`). A 200 ms deadline on code that must finish would be a coin flip on
// a loaded machine, where a thread can wait that long for a core.
@Suite(.timeLimit(.minutes(30))) struct SandboxSealTests {
  static let shortDeadline = Duration.milliseconds(200)

  static func sandbox(
    timeout: Duration? = .seconds(60), memory: Int? = 16 << 20, instructions: Int? = nil
  ) throws -> LuaState {
    var sandbox = LuaSandbox()
    sandbox.timeout = timeout
    sandbox.memoryLimit = memory
    sandbox.instructionLimit = instructions
    sandbox.output = { _ in }
    return try LuaState(sandbox: sandbox)
  }

  /// Runs `code`, which must fail with `kind`; the state must then still work. (No bound on
  /// the time taken: see the suite's comment.)
  func expectStop(
    _ lua: LuaState, _ code: String, _ kind: LuaError.Kind,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      if kind == .timeout {
        try underShortDeadline(lua) { _ = try lua.run(code, name: "=attack") }
      } else {
        try lua.run(code, name: "=attack")
      }
      Issue.record("ran to the end: \(code)", sourceLocation: sourceLocation)
    } catch let error as LuaError {
      #expect(error.kind == kind, "\(code): \(error.message)", sourceLocation: sourceLocation)
    } catch {
      Issue.record("\(code): \(error)", sourceLocation: sourceLocation)
    }
    #expect((try? lua.run("return 1 + 1")) == [2], sourceLocation: sourceLocation)
  }

  /// Runs `body`, which only a deadline can end, with `lua`'s deadline cut to
  /// `shortDeadline`; the state's own comes back afterwards.
  func underShortDeadline<T>(_ lua: LuaState, _ body: () throws -> T) rethrows -> T {
    let saved = lua.timeout
    lua.timeout = Self.shortDeadline
    defer { lua.timeout = saved }
    return try body()
  }

  // MARK: 1. Memory

  @Test func theLimitHoldsAfterSwiftPushesPassedIt() throws {
    let lua = try Self.sandbox(timeout: .seconds(20), memory: nil)
    // Usage can pass the limit (Swift-side pushes are never refused by the allocator, and a
    // limit can be lowered): here 12 MiB are in use under an 8 MiB limit...
    try lua.run("big = ('A'):rep(12 << 20)")
    lua.memoryLimit = 8 << 20
    #expect(lua.memoryInUse > 8 << 20)
    // ...and the limit must still refuse what the script allocates next.
    let error = try #require(throws: LuaError.self) {
      try lua.run("local s = 'x' for i = 1, 40 do s = s .. s end")
    }
    #expect(error.kind == .memory)
    #expect(lua.memoryInUse < 24 << 20)
    try lua.globals().rawSet("big", .nil)
    lua.collectGarbage()
    #expect(try lua.run("return #('x'):rep(1000)") == [1000])
  }

  @Test func swiftSideChargesCountAgainstTheLimit() throws {
    let lua = try Self.sandbox(timeout: .seconds(20), memory: 8 << 20)
    let account = try lua.memoryAccount()
    #expect(account.charge(4 << 20))
    #expect(!account.charge(8 << 20))
    expectStop(lua, "local s = ('x'):rep(3 << 20)", .memory)
    account.release(4 << 20)
    #expect(try lua.run("return #('x'):rep(3 << 20)") == [.integer(3 << 20)])
    #expect(account.charge(100, overdraft: true))
  }

  @Test func theLimitHoldsWithTheCollectorStopped() throws {
    let lua = try Self.sandbox(timeout: .seconds(20), memory: 8 << 20)
    expectStop(
      lua, "collectgarbage('stop') local t = {} for i = 1, 1e7 do t[i] = {} end", .memory)
  }

  // MARK: 2. C calls that no hook reaches

  /// Each would run for minutes at least if no limit stopped it (release build: the `or`
  /// chain about 5 minutes, the others hours or for ever), so the kind of its error says
  /// that the limit stopped it. One `os.date` or `table.sort` takes a second at most within
  /// the memory limit, so those repeat; the budget run still fails if the call itself is
  /// not stopped (its loop spends a few instructions a round: hours to use the budget up).
  /// The labels chunk is loaded again and again too (the budget stops it being built).
  static let longCalls = [
    "table.move({}, 1, math.maxinteger - 1, 2)",
    "table.move({1}, 1, 1e15, 2, {})",
    "local t = setmetatable({}, {__len = function() return 1e15 end}) table.insert(t, 1, 1)",
    "local t = setmetatable({}, {__len = function() return 1e15 end}) table.remove(t, 1)",
    "table.concat(setmetatable({}, {__index = function() return '' end}), '', 1, 1e15)",
    "string.rep('', 1e15) string.rep('', 1e15, '') while true do end",
    "return ('a'):rep(1000):find('.-.-.-.-b')",
    "return ('a'):rep(40):find(('.-'):rep(12) .. 'b')",
    "for m in ('^a'):rep(20000):gmatch('^a.-.-.-.-b') do end",
    "return ('x'):rep(1e6):gsub('', ('%0'):rep(1e6))",
    "return ('ab'):rep(100000):find('(.-)%1%1%1c')",
    "local s = {'local x'} for i = 1, 30000 do s[#s + 1] = 'goto l' .. i end for i = 1, 30000 do s[#s + 1] = '::l' .. i .. ':: x = 1' end local source = table.concat(s, ' ') for _ = 1, 1e9 do load(source) end",
    "return load(function() return ' ' end)",
    "return load('return a' .. ('or\"\"'):rep(1000):rep(450))",
    "package.path = ('x;'):rep(100000) pcall(require, 'nope') while true do end",
    "local format = ('%%'):rep(3e6) for _ = 1, 1e9 do os.date(format) end",
    // More than the 200,000 entries liblua may sort directly; no comparator, no metatable.
    "local t = {('ba'):rep(150000):byte(1, -1)} for _ = 1, 1e9 do table.sort(t) end",
    // Objects with a Lua __lt that fills the table with long strings: sorted as they are,
    // the strings were compared in C, unpolled (seconds here, and more with more objects;
    // few enough that the budget is left for the first __lt).
    "local S = ('a'):rep(2 << 20) local t, mt = {}, {} mt.__lt = function() for i = 1, #t do t[i] = S end return false end for i = 1, 5000 do t[i] = setmetatable({}, mt) end table.sort(t)",
  ]

  @Test(arguments: longCalls) func aDeadlineStopsLongCalls(_ code: String) throws {
    expectStop(try Self.sandbox(), code, .timeout)
  }

  @Test(arguments: longCalls) func anInstructionBudgetStopsLongCalls(_ code: String) throws {
    expectStop(try Self.sandbox(timeout: nil, instructions: 200_000), code, .instructionLimit)
  }

  @Test func theParserOfTheMainChunkIsUnderTheDeadline() throws {
    // Room for the parser's work: only the deadline may end it.
    let lua = try Self.sandbox(memory: 64 << 20)
    // Quadratic work for the parser: gotos waiting for their labels (a few seconds), then an
    // `or` chain, each `or` walking the list of jumps so far (about 5 minutes).
    var source = ""
    for _ in 0..<3 {
      source += "function f() local x "
      for i in 0..<30000 { source += "goto l\(i) " }
      for i in 0..<30000 { source += "::l\(i):: x = 1 " }
      source += "end "
    }
    source += "return a" + String(repeating: " or ''", count: 450_000)
    let error = try #require(throws: LuaError.self) {
      try underShortDeadline(lua) { try lua.load(source, name: "=main") }
    }
    #expect(error.kind == .timeout)
  }

  @Test func linearWorkRunsAtAnySize() throws {
    let lua = try Self.sandbox(timeout: .seconds(30), memory: 256 << 20)
    let results = try lua.run(
      """
      local s = ('word  \\t '):rep(300000)
      local squeezed = s:gsub('%s+', ' ')
      local trimmed = ('  ' .. ('x'):rep(1 << 20) .. '  '):match('^%s*(.-)%s*$')
      local n = 0 for w in s:gmatch('%a+') do n = n + 1 end
      return #squeezed, #trimmed, n, s:find('word', 1, true)
      """)
    #expect(results == [.integer(1_500_000), .integer(1 << 20), .integer(300_000), 1, 4])
  }

  @Test func theDebugSliceIsBoundedAndCannotCrash() throws {
    let lua = try Self.sandbox(timeout: .seconds(60), memory: 64 << 20)
    // A failed lookup on another thread's stack used to leave values there, past its end.
    try lua.run(
      """
      local co = coroutine.create(function() end)
      for i = 1, 200 do pcall(debug.getinfo, co, print, 'Lz') pcall(debug.getinfo, co, 0, 'Lz') end
      """)
    // Linear in the depth, this takes about 40 ms (release build); quadratic, as it once
    // was, it would run past the 60 s deadline and fail. No clock of ours is in the verdict.
    let depth = try lua.run(
      """
      local function rec(n) if n == 0 then return #debug.traceback() + debug.getinfo(140000, 'l').currentline end return 1 + rec(n - 1) end
      return rec(150000)
      """)
    #expect(depth.count == 1)
    let handler = try lua.run(
      "return select(2, xpcall(function() error('x') end, function(e) return debug.traceback(e, 2) end))"
    )
    #expect(try String(luaValue: handler[0]).contains("in function 'error'"))
  }

  // MARK: 3. Stops that do not reach

  @Test func stopsReachCloseHandlersOfCoroutines() throws {
    let lua = try Self.sandbox()
    let looping = "local x <close> = setmetatable({}, {__close = function() while true do end end})"
    expectStop(
      lua,
      "local co = coroutine.create(function() \(looping) coroutine.yield() end) coroutine.resume(co) coroutine.close(co)",
      .timeout)
    expectStop(lua, "coroutine.wrap(function() \(looping) error('x') end)()", .timeout)
    expectStop(
      lua, "local co = coroutine.wrap(function() \(looping) while true do end end) co()", .timeout)
  }

  @Test func aStopIsStickyThroughCoroutineFunctions() throws {
    let lua = try Self.sandbox(timeout: nil, instructions: 100_000)
    try lua.globals().set("went_on", false)
    for code in [
      "local co = coroutine.create(function() while true do end end) local ok, e = coroutine.resume(co) went_on = true",
      "local co = coroutine.create(function() while true do end end) coroutine.resume(co) coroutine.close(co) went_on = true",
      "pcall(coroutine.wrap(function() while true do end end)) went_on = true",
      "local ok = pcall(load, function() while true do end end) went_on = true",
    ] {
      expectStop(lua, code, .instructionLimit)
      #expect(try lua.globals().get("went_on") == false, "\(code)")
    }
  }

  @Test func aCoroutineStoppedInsideACBoundaryIsNotRunAgain() throws {
    let lua = try Self.sandbox()
    // table.sort's comparator is not yieldable: the stop is raised in the coroutine.
    expectStop(
      lua,
      "co = coroutine.create(function() local x <close> = setmetatable({}, {__close = function() while true do end end}) table.sort({3, 2, 1}, function(a, b) while true do end end) end) coroutine.resume(co)",
      .timeout)
    let closed = try lua.run("return coroutine.close(co)")
    #expect(closed.first == false)
  }

  @Test func aLiveObjectIsNotFinalizedByMarkingItTwice() throws {
    let lua = try Self.sandbox()
    let results = try lua.run(
      """
      local count = 0
      local mt = {__gc = function() count = count + 1 end}
      keep = {}
      setmetatable(keep, mt) setmetatable(keep, mt)
      collectgarbage() collectgarbage()
      local before = count
      keep = nil
      collectgarbage()
      return before, count
      """)
    #expect(results == [0, 1])
  }

  // MARK: 4. Host code that runs script code

  @Test func errorValuesTostringRunsUnderALimit() throws {
    let lua = try Self.sandbox()
    // The loop never ends by itself: the error comes back only if a limit stops it.
    let error = try #require(throws: LuaError.self) {
      try underShortDeadline(lua) {
        try lua.run("error(setmetatable({}, {__tostring = function() while true do end end}))")
      }
    }
    #expect(error.kind == .timeout || error.message.contains("table value"), "\(error.message)")
  }

  @Test func tableAccessFromSwiftRunsUnderALimit() throws {
    let lua = try Self.sandbox()
    try lua.run("setmetatable(_G, {__newindex = function() while true do end end})")
    let error = try #require(throws: LuaError.self) {
      try underShortDeadline(lua) { try lua.globals().set("x", 1) }
    }
    #expect(error.kind == .timeout)
    try lua.globals().rawSet("y", 2)
    #expect(try lua.run("return y") == [2])
  }

  // MARK: 6. Files

  @Test func requireStaysInsideItsFolder() throws {
    let folder = "/tmp/luahost-require-\(UInt32.random(in: 0...UInt32.max))"
    let module = "\(folder)/mods"
    try Shell.run(
      "mkdir -p \(module)/pkg && echo 'return 42' > \(module)/ok.lua"
        + " && echo 'return \"init\"' > \(module)/pkg/init.lua"
        + " && echo 'return \"secret\"' > \(folder)/secret.lua"
        + " && ln -s \(folder)/secret.lua \(module)/link.lua && ln -s /dev/zero \(module)/zero.lua"
        + " && mkfifo \(module)/fifo.lua && ln -s .. \(module)/up")
    defer { try? Shell.run("rm -rf \(folder)") }
    var sandbox = LuaSandbox()
    sandbox.moduleDirectory = module
    sandbox.timeout = .seconds(5)
    let lua = try LuaState(sandbox: sandbox)
    #expect(try lua.run("return require('ok'), (require('pkg'))") == [42, "init"])
    for name in ["link", "zero", "fifo", "up.secret", "up/secret", "../secret"] {
      let error = try #require(throws: LuaError.self) { try lua.run("return require('\(name)')") }
      #expect(error.message.contains("not found"), "\(name): \(error.message)")
    }
    try lua.run("package.path = '\(folder)/?.lua'")
    let absolute = try #require(throws: LuaError.self) { try lua.run("return require('secret')") }
    #expect(absolute.message.contains("module 'secret' not found"), "\(absolute.message)")
  }
}

/// Runs shell commands for fixtures.
enum Shell {
  static func run(_ command: String) throws {
    let status = command.withCString { system($0) }
    guard status == 0 else { throw LuaError(kind: .file, message: "\(command): \(status)") }
  }
}
