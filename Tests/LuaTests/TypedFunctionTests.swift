import Lua
import Testing

/// Lines a Swift closure under test received.
final class Lines {
  var lines: [String] = []
}

/// Typed Swift closures that return nothing or several values, and typed calls that return
/// several (issue 24, item 8).
@Suite(.timeLimit(.minutes(30))) struct TypedFunctionTests {
  let lua: LuaState
  init() throws { lua = try LuaState() }

  @Test func aClosureThatReturnsNothingGivesLuaNoResult() throws {
    let log = Lines()
    try lua.register("log") { (line: String) in log.lines.append(line) }
    try lua.register("note") { (line: String, count: Int) in
      for _ in 0..<count { log.lines.append(line) }
    }
    #expect(try lua.run("log('a'); note('b', 2); return select('#', log('c'))") == [0])
    #expect(log.lines == ["a", "b", "b", "c"])
    let error = try #require(throws: LuaError.self) { try lua.run("log({})") }
    #expect(error.message.contains("bad argument #1 (string expected, got table)"))
    let function = try lua.function { (line: String) in log.lines.append(line) }
    try function.call("d")
    #expect(log.lines.last == "d")
    #expect(lua.stackTop == 0)
  }

  @Test func aClosureThatReturnsATupleGivesLuaSeveralResults() throws {
    try lua.register("divmod") { (a: Int, b: Int) in (a / b, a % b) }
    try lua.register("describe") { (name: String) -> (String, Int, Bool?) in
      (name.uppercased(), name.count, nil)
    }
    #expect(try lua.run("return divmod(17, 5)") == [3, 2])
    #expect(
      try lua.run("return select('#', describe('lua')), describe('lua')") == [3, "LUA", 3, .nil])
    // A single value is still one result, not a tuple of one.
    try lua.register("twice") { (x: Int) in x * 2 }
    #expect(try lua.run("return select('#', twice(2)), twice(21)") == [1, 42])
    #expect(lua.stackTop == 0)
  }

  @Test func argumentsClosuresMayReturnNothingOrATuple() throws {
    let log = Lines()
    let record = try lua.function(arguments: { arguments in
      log.lines.append(try arguments.convert(at: 1, to: String.self))
    })
    let swap = try lua.function(arguments: { arguments in
      let (a, b) = try arguments.convert(to: Int.self, String.self)
      return (b, a)
    })
    try lua.globals().set("record", .function(record))
    try lua.globals().set("swap", .function(swap))
    try lua.register("pair", arguments: { arguments in (arguments.count, "pair") })
    #expect(try lua.run("return select('#', record('x')), swap(1, 'one')") == [0, "one", 1])
    #expect(try lua.run("return pair(1, 2, 3)") == [3, "pair"])
    #expect(log.lines == ["x"])
    let error = try #require(throws: LuaError.self) { try lua.run("swap('x', 'y')") }
    #expect(error.message.contains("bad argument #1 (integer expected, got string)"))
  }

  @Test func callReturnsATupleOfTypedResults() throws {
    let f = try LuaFunction(
      luaValue: lua.run("return function(a, b) return a + b, 'sum ' .. (a + b), a > b end")[0])
    let (sum, text) = try f.call(1, 2, returning: (Int, String).self)
    #expect(sum == 3 && text == "sum 3")
    let (x, y, greater) = try f.call(2.5, 1, returning: (Double, String, Bool).self)
    #expect(x == 3.5 && y == "sum 3.5" && greater)
    // Results past the last one convert from nil; extra ones are dropped.
    let (first, missing) = try LuaFunction(luaValue: lua.run("return function() return 7 end")[0])
      .call(returning: (Int, String?).self)
    #expect(first == 7 && missing == nil)
    let error = try #require(throws: LuaError.self) {
      try f.call(1, 2, returning: (Int, Int).self)
    }
    #expect(error.kind == .conversion)
    #expect(error.message == "result #2: integer expected, got string")
    // For effect only: no result wanted.
    let log = Lines()
    try lua.register("log") { (line: String) in log.lines.append(line) }
    let logger = try LuaFunction(luaValue: lua.globals().get("log"))
    try logger.call("done", returning: Void.self)
    #expect(log.lines == ["done"])
    #expect(lua.stackTop == 0)
  }

  @Test func aTupleCallRaisesTheFunctionsError() throws {
    let fail = try LuaFunction(
      luaValue: lua.run("return function(x) error('bad ' .. x) end", name: "=t")[0])
    let error = try #require(throws: LuaError.self) {
      try fail.call(7, returning: (Int, Int).self)
    }
    #expect(error.kind == .runtime)
    #expect(error.message == "t:1: bad 7")
    #expect(lua.stackTop == 0)
  }
}
