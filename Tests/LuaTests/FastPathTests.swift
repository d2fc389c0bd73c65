import Lua
import Testing

/// The allocation-free call paths added for the benchmarks (issue 7).
@Suite(.timeLimit(.minutes(15))) struct FastPathTests {
  let lua: LuaState
  init() throws { lua = try LuaState() }

  @Test func typedCallPushesScalarsDirectly() throws {
    let add = try LuaFunction(luaValue: lua.run("return function(a, b) return a + b end")[0])
    #expect(try add.call(Int64(2), 3, returning: Int64.self) == 5)
    #expect(try add.call(Int64(2), 0.5, returning: Double.self) == 2.5)
    let none = try LuaFunction(luaValue: lua.run("return function() end")[0])
    #expect(try none.call(Int64(1), returning: Int?.self) == nil)
    let concat = try LuaFunction(luaValue: lua.run("return function(a, b) return a .. #b end")[0])
    #expect(try concat.call("n=", [1, 2, 3], returning: String.self) == "n=3")
    #expect(lua.stackTop == 0)
  }

  @Test func typedCallReportsErrorsAndConversions() throws {
    let fail = try LuaFunction(
      luaValue: lua.run("return function(x) error('bad ' .. x) end", name: "=t")[0])
    let error = try #require(throws: LuaError.self) {
      try fail.call(Int64(7), returning: Int.self)
    }
    #expect(error.kind == .runtime)
    #expect(error.message == "t:1: bad 7")
    #expect(!error.traceback.isEmpty)
    let text = try LuaFunction(luaValue: lua.run("return function() return 'x' end")[0])
    let conversion = try #require(throws: LuaError.self) {
      try text.call(Int64(1), returning: Int64.self)
    }
    #expect(conversion.kind == .conversion)
    #expect(conversion.message == "integer expected, got string")
    #expect(lua.stackTop == 0)
  }

  @Test func argumentsAreReadInPlace() throws {
    try lua.register(
      "describe",
      arguments: { (arguments: LuaArguments) -> String in
        let total = try arguments.integer(at: 1) + Int64(arguments.number(at: 2))
        return "\(arguments.count):\(total):\(arguments[3].typeName):\(arguments[9].isNil)"
      })
    #expect(try lua.run("return describe(40, 2.0, 'x')") == ["3:42:string:true"])
    #expect(try lua.run("return describe(4.0, 1)") == ["2:5:nil:true"])
    let result = try lua.run("return pcall(describe, 'no')")
    #expect(result.first == false)
    #expect((try String(luaValue: result[1])).contains("bad argument #1"))
    #expect(try lua.run("return pcall(describe, 1.5)").first == false)
    #expect(lua.stackTop == 0)
  }

  @Test func typedClosuresKeepTheirErrors() throws {
    try lua.register("twice") { (x: Int) in x * 2 }
    #expect(try lua.run("return twice(21)") == [42])
    let result = try lua.run("return pcall(twice, 'x')")
    #expect(result.first == false)
    #expect(
      (try String(luaValue: result[1])).contains("bad argument #1 (integer expected, got string)"))
  }
}
