import Lua
import Testing

struct MyError: Error, Equatable {
  var code: Int
}

@Suite(.timeLimit(.minutes(30))) struct ErrorTests {
  let lua: LuaState
  init() throws { lua = try LuaState() }

  func failure(_ code: String, name: String? = nil) throws -> LuaError {
    do {
      try lua.run(code, name: name)
    } catch let error as LuaError {
      return error
    }
    Issue.record("expected \(code) to fail")
    throw MyError(code: -1)
  }

  @Test func syntaxErrorsNameChunkAndLine() throws {
    let error = try failure("x = 1\ny = = 2", name: "=config")
    #expect(error.kind == .syntax(incomplete: false))
    #expect(error.location == LuaSourceLocation(source: "config", line: 2))
    #expect(error.message.hasPrefix("config:2:"))
    let incomplete = try failure("function f()\n  return 1", name: "=repl")
    #expect(incomplete.kind == .syntax(incomplete: true))
    let unbalanced = try failure("x = (1))", name: "=repl")
    #expect(unbalanced.kind == .syntax(incomplete: false))
  }

  @Test func binaryChunksAreRefusedByDefault() throws {
    let dumped = try lua.run("return string.dump(function() return 42 end)")[0]
    guard case .string(let bytes) = dumped else {
      Issue.record("no bytes")
      return
    }
    let refused = try #require(throws: LuaError.self) {
      try lua.load(bytes: bytes.bytes, name: "=dump")
    }
    #expect(refused.kind == .syntax(incomplete: false))
    #expect(
      refused.message.contains("attempt to load a binary chunk (mode is 't')"),
      "\(refused.message)")
    let function = try lua.load(bytes: bytes.bytes, name: "=dump", mode: .binary)
    #expect(try function.call() == [.integer(42)])
  }

  @Test func runtimeErrorsCarryLocationAndTraceback() throws {
    let error = try failure(
      "local function inner() error('boom') end\nlocal function outer() inner() end\nouter()",
      name: "@script.lua")
    #expect(error.kind == .runtime)
    #expect(error.message == "script.lua:1: boom")
    #expect(error.value == "script.lua:1: boom")
    #expect(error.location == LuaSourceLocation(source: "script.lua", line: 1))
    let names = error.traceback.frames.compactMap(\.name)
    #expect(names.starts(with: ["error", "inner", "outer"]))
    #expect(error.traceback.description.contains("script.lua:2: in local 'outer'"))
    #expect(error.traceback.frames.last?.kind == .main)
  }

  @Test func deepStacksKeepHeadAndTail() throws {
    let error = try failure(
      "local function f(n) if n == 0 then error('deep') end f(n - 1) end f(500)")
    #expect(error.traceback.depth > 500)
    #expect(error.traceback.frames.count == 21)
    #expect(error.traceback.description.contains("skipping"))
  }

  @Test func errorValuesOfEveryType() throws {
    let table = try failure("error({code = 42})")
    guard case .table(let t) = table.value else {
      Issue.record("value is not a table")
      return
    }
    #expect(try t.get("code") == 42)
    #expect(table.message == "(error object is a table value)")

    let none = try failure("error(nil)")
    #expect(none.value == .nil)
    #expect(none.message == "(error object is a nil value)")

    let number = try failure("error(42)")
    #expect(number.value == 42)
    #expect(number.message == "42")

    let described = try failure(
      "error(setmetatable({}, {__tostring = function() return 'pretty' end}))")
    #expect(described.message == "pretty")

    let broken = try failure(
      "error(setmetatable({}, {__tostring = function() error('worse') end}))")
    #expect(broken.message.contains("__tostring failed"))
    #expect(broken.message.contains("worse"))

    let userdata = try failure("error(io.stdout)")
    guard case .userdata = userdata.value else {
      Issue.record("value is not userdata")
      return
    }
    #expect(userdata.message.hasPrefix("file ("))
  }

  @Test func memoryErrorsAreCleanAndTheStateSurvives() throws {
    let limited = try LuaState(memoryLimit: 512 * 1024)
    do {
      try limited.run("local t = {} for i = 1, 1e8 do t[i] = ('x'):rep(100) .. i end")
      Issue.record("expected a memory error")
    } catch let error as LuaError {
      #expect(error.kind == .memory)
    }
    limited.collectGarbage()
    #expect(try limited.run("return 1 + 1") == [2])
    #expect(try limited.run("return pcall(string.rep, 'x', 1e7)")[0] == false)
    #expect(limited.memoryInUse <= 512 * 1024)
  }

  /// A stack overflow is an ordinary runtime error: the message handler (C, a few stack
  /// slots, inside Lua's reserve) still runs, so `.messageHandler` (`LUA_ERRERR`) does not
  /// arise from it.
  @Test func aStackOverflowIsARuntimeErrorWithATraceback() throws {
    let error = try failure("local function f() return f() + 1 end f()")
    #expect(error.kind == .runtime)
    #expect(!error.traceback.isEmpty)
    #expect(error.message.contains("stack overflow"))
    #expect(try lua.run("return 'still fine'") == ["still fine"])
  }

  @Test func swiftErrorsComeBackAsThemselves() throws {
    try lua.register("fail") { _ in throw MyError(code: 7) }
    let error = try failure("local function middle() fail() end middle()", name: "=s")
    #expect(error.kind == .swift)
    #expect(error.underlying(as: MyError.self) == MyError(code: 7))
    #expect(error.traceback.frames.contains { $0.name == "middle" })
    #expect(error.message == "MyError(code: 7)")
  }

  @Test func pcallCatchesSwiftErrors() throws {
    try lua.register("fail") { _ in throw MyError(code: 9) }
    let results = try lua.run("local ok, e = pcall(fail) return ok, tostring(e), type(e)")
    #expect(results == [false, "MyError(code: 9)", "userdata"])
    // Rethrown from Lua, it is still the same Swift error.
    let error = try failure("local ok, e = pcall(fail) error(e)")
    #expect(error.underlying(as: MyError.self) == MyError(code: 9))
  }

  @Test func luaErrorsThroughSwiftKeepTheirValue() throws {
    try lua.register("callback") { arguments in
      try LuaFunction(luaValue: arguments[0]).call()
    }
    let results = try lua.run(
      "local ok, e = pcall(callback, function() error({tag = 'inner'}) end) return ok, e.tag")
    #expect(results == [false, "inner"])
  }

  @Test func metamethodErrorsDuringSwiftOperations() throws {
    let hostile = try lua.run(
      """
      local mt = {}
      for _, event in ipairs{'__index', '__newindex', '__eq', '__lt', '__le', '__concat', '__len', '__tostring'} do
        mt[event] = function() error(event .. ' failed') end
      end
      return setmetatable({}, mt), setmetatable({}, mt)
      """)
    guard case .table(let t) = hostile[0] else {
      Issue.record("not a table")
      return
    }
    let top = lua.stackTop
    #expect(try failing { try t.get("x") }.contains("__index failed"))
    #expect(try failing { try t.set("x", 1) }.contains("__newindex failed"))
    #expect(try failing { try lua.compare(hostile[0], hostile[1], .equal) }.contains("__eq failed"))
    #expect(
      try failing { try lua.compare(hostile[0], hostile[1], .lessThan) }.contains("__lt failed"))
    #expect(
      try failing { try lua.compare(hostile[0], hostile[1], .lessThanOrEqual) }.contains(
        "__le failed"))
    #expect(try failing { try lua.concatenate([hostile[0], "x"]) }.contains("__concat failed"))
    #expect(try failing { try t.length() }.contains("__len failed"))
    #expect(try failing { try lua.string(describing: hostile[0]) }.contains("__tostring failed"))
    let mismatch = try #require(throws: LuaError.self) { try lua.compare(1, "x", .lessThan) }
    #expect(mismatch.kind == .runtime)
    #expect(mismatch.message.contains("attempt to compare number with string"))
    #expect(lua.stackTop == top)
  }

  @Test func closeMetamethodErrors() throws {
    let error = try failure(
      "local x <close> = setmetatable({}, {__close = function() error('closing') end})")
    #expect(error.message.contains("closing"))
  }

  func failing(_ body: () throws -> some Any) throws -> String {
    do {
      _ = try body()
    } catch let error as LuaError {
      return error.message
    }
    Issue.record("expected an error")
    return ""
  }

  @Test func manyFailuresLeaveStackAndMemoryFlat() throws {
    let function = try lua.load("error({payload = ('x'):rep(100)})")
    try lua.register("fail") { _ in throw MyError(code: 1) }
    let thrower = try lua.load("fail()")
    for _ in 0..<100 {
      _ = try? function.call()
      _ = try? thrower.call()
    }
    lua.collectGarbage()
    let top = lua.stackTop
    let memory = lua.memoryInUse
    // Counted by hand: `#expect(throws:)` reflects each error it sees (the error's value
    // and the state behind it), which made 20,000 of them take minutes under TSan.
    var failures = 0
    for _ in 0..<10_000 {
      for chunk in [function, thrower] {
        do {
          try chunk.call()
        } catch is LuaError {
          failures += 1
        }
      }
    }
    #expect(failures == 20_000)
    lua.collectGarbage()
    #expect(lua.stackTop == top)
    #expect(lua.memoryInUse <= memory + memory / 20)
  }

  @Test func closedStatesThrow() throws {
    let other = try LuaState()
    let f = try other.load("return 1")
    other.close()
    other.close()
    #expect(other.isClosed)
    do {
      try f.call()
      Issue.record("expected usage error")
    } catch let error as LuaError {
      #expect(error.kind == .usage)
    }
  }

  @Test func valuesFromAnotherStateAreRefused() throws {
    let other = try LuaState()
    let foreign = try other.makeTable()
    let error = try #require(throws: LuaError.self) {
      try lua.globals().set("t", .table(foreign))
    }
    #expect(error.kind == .usage)
    #expect(error.message.contains("a state it does not belong to"), "\(error.message)")
  }
}
