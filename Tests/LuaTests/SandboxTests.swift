import Lua
import Synchronization
import Testing

// A hang guard, not a speed check: a stop that does not come fails the test here.
@Suite(.timeLimit(.minutes(30))) struct SandboxTests {
  let lines = Lines()
  let lua: LuaState

  final class Lines: Sendable {
    let value = LockedValue<[String]>([])
    var all: [String] { value.withLock { $0 } }
  }

  init() throws {
    var sandbox = LuaSandbox()
    // A minute for code that must run to its end, however loaded the machine; code that
    // only the deadline ends runs through `stopMessage`, under 200 ms.
    sandbox.timeout = .seconds(60)
    sandbox.memoryLimit = 8 << 20
    let lines = self.lines
    sandbox.output = { line in lines.value.withLock { $0.append(line.description) } }
    lua = try LuaState(sandbox: sandbox)
  }

  /// The message of `code`, which only the deadline can end, run under a 200 ms one.
  func stopMessage(_ code: String) throws -> String {
    let saved = lua.timeout
    lua.timeout = .milliseconds(200)
    defer { lua.timeout = saved }
    return try message(code)
  }

  func message(_ code: String) throws -> String {
    do {
      try lua.run(code, name: "=plugin")
    } catch let error as LuaError {
      return error.message
    }
    Issue.record("expected \(code) to fail")
    return ""
  }

  @Test func dangerousLibrariesAreAbsent() throws {
    let results = try lua.run(
      "return io, debug.sethook, package.loadlib, package.cpath, package.searchers, dofile, loadfile, string.dump, os.execute, os.exit, os.getenv, type(os.clock), type(os.time)"
    )
    #expect(
      results == [
        .nil, .nil, .nil, .nil, .nil, .nil, .nil, .nil, .nil, .nil, .nil, "function", "function",
      ])
  }

  @Test func loadIsTextOnly() throws {
    #expect(try lua.run("return load('return 1 + 1')()") == [2])
    let binary = try lua.run("local ok, err = load('\\27Lua') return ok, err")
    #expect(binary[0] == .nil)
    #expect(try String(luaValue: binary[1]).contains("binary chunk"))
  }

  /// The policy (lh_sandbox.c, once a Lua prelude) leaves each global as the prelude did:
  /// the sandbox's own functions in place of liblua's, the slices of os, debug and package,
  /// and, once granted, the full libraries instead.
  @Test func thePolicyInstallsTheSandboxsGlobals() throws {
    #expect(
      try lua.run(
        """
        local keys = {}
        for k in pairs(os) do keys[#keys + 1] = k end
        table.sort(keys)
        return dofile, loadfile, string.dump, table.concat(keys, ','),
          package.loaded.os == os, package.loaded.debug == debug,
          package.loaded.package == package, package.loaded == package.loaded.package.loaded,
          package.config, package.path, next(package.preload), type(require),
          debug.sethook, type(debug.traceback), getmetatable('')
        """) == [
          .nil, .nil, .nil, "clock,date,difftime,time", true, true, true, true,
          "/\n;\n?\n!\n-\n", "", .nil, "function", .nil, "function", "locked",
        ])
    // Each replaced function is a C function (none of them a Lua function of the host's).
    #expect(
      try lua.run(
        """
        local n = 0
        for _, f in ipairs({load, xpcall, setmetatable, collectgarbage, print, require,
            string.rep, string.find, string.match, string.gmatch, string.gsub,
            table.concat, table.insert, table.remove, table.move, table.sort, os.date}) do
          if debug.getinfo(f, 'S').what == 'C' then n = n + 1 end
        end
        return n
        """) == [17])
    var granted = LuaSandbox()
    granted.capabilities = [.os, .debug, .package]
    let full = try LuaState(sandbox: granted)
    #expect(
      try full.run(
        "return type(os.getenv), type(debug.sethook), type(package.searchers), type(require)")
        == ["function", "function", "table", "function"])
    // The full os keeps the sandbox's os.date, which a stop reaches.
    #expect(try full.run("return os.date('%Y', 0)") == ["1970"])
  }

  @Test func finalizersRunUnderTheLimitsAndTheStringMetatableIsLocked() throws {
    #expect(
      try stopMessage(
        "setmetatable({}, {__gc = function() while true do end end}) collectgarbage()")
        == "execution timed out")
    #expect(try lua.run("return type(collectgarbage('count'))") == ["number"])
    #expect(try lua.run("return getmetatable('')") == ["locked"])
    #expect(try message("getmetatable('').__index = {}").contains("index"))
  }

  @Test func printGoesToTheHostAndWarningsDoNot() throws {
    try lua.run("print('hello', 1, nil, true) warn('@on') warn('careful') print('a\\0b')")
    #expect(lines.all == ["hello\t1\tnil\ttrue", "a\0b"])
  }

  @Test func longResultsMeetTheMemoryLimit() throws {
    let error = try #require(throws: LuaError.self) { try lua.run("string.rep('x', 4e8)") }
    #expect(error.kind == .memory)
    var roomy = LuaSandbox()
    roomy.memoryLimit = nil
    let big = try LuaState(sandbox: roomy)
    #expect(
      try big.run("local t = {} for i = 1, 5001 do t[i] = -i end table.sort(t) return t[1]") == [
        -5001
      ])
  }

  /// A `LuaSandbox()` with nothing set (the suite's own state has limits of its own).
  @Test func limitsAreOnByDefault() throws {
    let defaults = try LuaState(sandbox: LuaSandbox())
    #expect(defaults.timeout == Duration.seconds(10))
    #expect(defaults.memoryLimit == 64 << 20)
    // The loop runs for ever unless the default deadline stops it (after its 10 s)...
    let loop = try #require(throws: LuaError.self) { try defaults.run("while true do end") }
    #expect(loop.kind == .timeout)
    #expect(loop.message == "execution timed out")
    // ...and the table would take 2 GiB unless the default memory limit refuses it (with no
    // deadline: a loaded machine under a sanitizer may take 10 s to fill 64 MiB).
    defaults.timeout = nil
    let table = try #require(throws: LuaError.self) {
      try defaults.run("local t = {} for i = 1, 1e8 do t[i] = i end")
    }
    #expect(table.kind == .memory)
    #expect(table.message.contains("not enough memory"))
    #expect(try defaults.run("return 'still here'") == ["still here"])
  }

  @Test func xpcallHandlersDoNotRunForStops() throws {
    let text = try stopMessage(
      "xpcall(function() while true do end end, function() while true do end end)")
    #expect(text == "execution timed out")
    #expect(
      try lua.run("return xpcall(error, function(e) return 'handled ' .. e end, 'x')") == [
        false, "handled x",
      ])
    #expect(try message("xpcall(print, nil)").contains("bad argument #2 to 'xpcall'"))
  }

  /// Without a module folder nothing is read; the libraries are still `require`-able.
  /// (With a folder: `SandboxSealTests.requireStaysInsideItsFolder`.)
  @Test func requireWithoutAModuleFolderReadsNoFile() throws {
    let noFolder = try message("require('json')")
    #expect(noFolder.contains("module 'json' not found"))
    #expect(!noFolder.contains("no file"))
    #expect(try lua.run("return require('string') == string, package.path") == [true, ""])
  }
}

// A hang guard, not a speed check: a stop that does not come fails the test here.
@Suite(.timeLimit(.minutes(30))) struct SandboxAttackTests {
  /// For attacks that only the deadline can end: each runs for ever (or for hours) unless
  /// it stops it, so a `.timeout` says the deadline reached it, and no clock is read.
  var lua: LuaState
  /// For attacks that must end by themselves (an error, the memory limit, a stack
  /// overflow) and for code that must run: a deadline far past what that takes, so that
  /// it cannot decide a verdict however slow the machine.
  var patient: LuaState

  init() throws {
    lua = try Self.sandbox(timeout: .milliseconds(300))
    patient = try Self.sandbox(timeout: .seconds(60))
  }

  static func sandbox(timeout: Duration) throws -> LuaState {
    var sandbox = LuaSandbox()
    sandbox.timeout = timeout
    sandbox.memoryLimit = 16 << 20
    sandbox.output = { _ in }
    return try LuaState(sandbox: sandbox)
  }

  /// Runs an attack in `state` (`patient` by default): it must fail with `kind`, and the
  /// next script must run normally.
  func attack(
    _ code: String, _ kind: LuaError.Kind, containing text: String? = nil,
    in state: LuaState? = nil
  ) throws {
    try attack(code, [kind], containing: text, in: state)
  }

  func attack(
    _ code: String, _ kinds: Set<LuaError.Kind>, containing text: String? = nil,
    in state: LuaState? = nil
  ) throws {
    let target = state ?? patient
    do {
      try target.run(code, name: "=attack")
      Issue.record("attack succeeded: \(code)")
    } catch let error as LuaError {
      #expect(kinds.contains(error.kind), "\(code): \(error.message)")
      if let text { #expect(error.message.contains(text), "\(error.message)") }
    }
    // Under the patient deadline: `lua`'s 300 ms is for the attack alone.
    let saved = target.timeout
    target.timeout = patient.timeout
    defer { target.timeout = saved }
    #expect(try target.run("local t = {} for i = 1, 100 do t[i] = i end return #t") == [100])
  }

  @Test func escapes() throws {
    try attack("load(string.dump(print))", .runtime, containing: "dump")
    try attack("assert(load('\\27LuaT'))()", .runtime, containing: "binary")
    try attack("debug.sethook()", .runtime, containing: "sethook")
    try attack("debug.getinfo(1, 'f')", .runtime, containing: "not allowed")
    try attack("getmetatable('').__index = {}", .runtime)
    try attack("rawset(getmetatable(''), '__index', {})", .runtime, containing: "table expected")
    try attack("os.exit(1)", .runtime, containing: "exit")
    try attack("io.open('/etc/passwd')", .runtime, containing: "io")
    try attack("require('os').execute('true')", .runtime, containing: "execute")
    try attack("package.loadlib('libc.so.6', 'system')", .runtime, containing: "loadlib")
  }

  @Test func runawayLoops() throws {
    try attack("while true do end", .timeout, in: lua)
    try attack("while true do pcall(function() while true do end end) end", .timeout, in: lua)
    try attack("coroutine.wrap(function() while true do end end)()", .timeout, in: lua)
    try attack(
      "xpcall(function() while true do end end, function() while true do end end)", .timeout,
      in: lua)
    try attack(
      "do local x <close> = setmetatable({}, {__close = function() while true do end end}) end",
      .timeout, in: lua)
  }

  /// Looping finalizers: the call that runs one stops at its deadline. Each attack gets a
  /// state of its own, since the finalizers it leaves pending may run in any later call
  /// of that state (at a collection that nothing schedules): such a call may succeed or
  /// stop at its own deadline, but must not run past it or crash, and the state closes.
  @Test(arguments: [
    "setmetatable({}, {__gc = function() while true do end end}) collectgarbage()",
    "for i = 1, 1e6 do setmetatable({}, {__gc = function() while true do end end}) end",
  ])
  func runawayFinalizers(code: String) throws {
    let state = try Self.sandbox(timeout: .milliseconds(300))
    do {
      try state.run(code, name: "=attack")
      Issue.record("attack succeeded: \(code)")
    } catch let error as LuaError {
      #expect([.timeout, .memory].contains(error.kind), "\(code): \(error.message)")
    }
    do {
      #expect(try state.run("local t = {} for i = 1, 100 do t[i] = i end return #t") == [100])
    } catch let error as LuaError {
      #expect(error.kind == .timeout, "\(error.message)")
    }
    state.close()
    #expect(state.isClosed)
  }

  @Test func resourceBombs() throws {
    // Backtracking patterns run until the deadline stops them, wherever they are: each
    // would run for hours (release build) if it did not.
    try attack("return ('a'):rep(1000):find('.-.-.-.-b')", .timeout, in: lua)
    try attack("return ('a'):rep(1e6):find('.-b')", .timeout, in: lua)
    try attack("for w in ('a'):rep(1e6):gmatch('(a*)*b') do end", .timeout, in: lua)
    // The memory limit ends these (the table at its first few MiB): no deadline decides.
    try attack("return string.rep('x', 4e8)", .memory)
    try attack("local t = {} for i = 1, 1e8 do t[i] = i end", .memory)
    // Deep recursion ends in a stack overflow, or first in the memory limit: what matters
    // is that it ends, cleanly.
    try attack("local function f() return f() + 1 end f()", [.runtime, .memory, .messageHandler])
    // Ordinary patterns on long subjects stay allowed.
    #expect(
      try patient.run("return (('x'):rep(10000) .. ' end'):match('^%s*(.-)%s*$'):sub(-3)") == [
        "end"
      ])
    #expect(
      try patient.run(
        "local n = 0 for w in ('a b c '):rep(1000):gmatch('%a+') do n = n + 1 end return n") == [
          3000
        ])
    #expect(try patient.run("return (('a,'):rep(5000)):gsub(',', ';', 10):sub(1, 4)") == ["a;a;"])
  }

  @Test func oddErrorValues() throws {
    try attack("error(nil)", .runtime, containing: "nil value")
    try attack("error({})", .runtime, containing: "table value")
    try attack(
      "error(setmetatable({}, {__tostring = function() error('again') end}))", .runtime,
      containing: "__tostring failed")
  }
}
