import Lua
import Testing

/// The allocation-free call paths added for the benchmarks (issue 7).
@Suite(.timeLimit(.minutes(30))) struct FastPathTests {
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

  /// The arguments of a call are counted only when asked (`LuaArguments(uncounted:)`):
  /// the count, reads past it, and reads past the positions read without a count must all
  /// be what the stack holds, with trailing nils counted as Lua counts them.
  @Test(arguments: [0, 1, 2, 15, 16, 17, 20, 40])
  func argumentsCountedWhenAskedMatchTheStack(count: Int) throws {
    try lua.register(
      "probe",
      arguments: { (arguments: LuaArguments) -> String in
        var seen: [String] = []
        for position in 1...(count + 2) {
          let value = arguments[position]
          let read = (try? arguments.integer(at: position)).map { "\($0)" } ?? "-"
          seen.append(value.isNil ? "nil/\(read)" : "\(value)/\(read)")
        }
        return "\(arguments.count) " + seen.joined(separator: " ")
      })
    let values = (0..<count).map { $0 == count - 1 ? "nil" : "\($0 + 1)" }
    let expected =
      "\(count) "
      + ((0..<count).map { $0 == count - 1 ? "nil/-" : "\($0 + 1)/\($0 + 1)" } + ["nil/-", "nil/-"])
      .joined(separator: " ")
    #expect(
      try lua.run("return probe(\(values.joined(separator: ", ")))") == [
        .string(LuaString(expected))
      ])
    // A method's arguments after `self` count one fewer.
    try lua.register(
      "method",
      arguments: { (arguments: LuaArguments) -> Int in
        arguments.afterSelf(method: "m").count
      })
    #expect(
      try lua.run("return method(\(values.joined(separator: ", ")))") == [
        .integer(Int64(max(count - 1, 0)))
      ])
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

  /// The scalar fast paths (`_read` in place, `_push` without the state) against the
  /// `LuaValue` path they replace, as the typed function and the typed call use them: for
  /// every input, the same result or the same error message.
  @Test(arguments: [
    "1", "2.0", "2.5", "-0.0", "math.maxinteger", "math.mininteger", "2^63", "1/0", "0/0",
    "'10'", "'x'", "true", "false", "nil", "{}", "('y'):rep(5000)",
  ])
  func scalarFastPathsMatchTheValuePath(input: String) throws {
    func outcome(_ code: String) -> String {
      do {
        return try lua.run(code).map { "\($0)" }.joined(separator: ",")
      } catch {
        return "error: \(error)"
      }
    }
    func check<T: LuaConvertible>(_ type: T.Type, _ name: String) throws {
      try lua.register("fast_" + name) { (value: T) in value }
      // The state comes from the call (capturing `lua` would make a cycle: the state keeps
      // its functions, and LeakSanitizer reports the state as leaked).
      try lua.register(
        "slow_" + name,
        arguments: { arguments -> LuaValue in
          let value: T
          do {
            value = try T(luaValue: arguments[1])
          } catch let error as LuaError {
            throw LuaError(kind: .runtime, message: "bad argument #1 (\(error.message))")
          }
          return try value.luaValue(in: arguments.state)
        })
      let call = "return "
      #expect(
        outcome(call + "fast_\(name)(v)") == outcome(call + "slow_\(name)(v)"),
        "\(name) from \(input)")
      // Swift to Lua: the typed call pushes the argument itself.
      let identity = try LuaFunction(luaValue: lua.run("return function(x) return x end")[0])
      if let value = try? T(luaValue: lua.run("return v").first ?? .nil) {
        #expect(
          "\(try identity.call(value, returning: LuaValue.self))"
            == "\(try value.luaValue(in: lua))", "\(name) pushed from \(input)")
      }
    }
    _ = try lua.run("v = (\(input))")  // one value for both paths (a table's address)
    try check(Int64.self, "int64")
    try check(Int.self, "int")
    try check(Double.self, "double")
    try check(Bool.self, "bool")
    try check(String.self, "string")
    try check(Int?.self, "optional")
    try check(LuaValue.self, "value")
    #expect(lua.stackTop == 0)
  }

  /// `object(at:as:)` skips the dynamic cast for an object of exactly the type asked for;
  /// a subclass still converts, and another class still does not.
  @Test func objectsReadInPlaceByExactTypeAndBySubclass() throws {
    class Base {}
    final class Sub: Base {}
    final class Other {}
    try lua.register(
      "kinds",
      arguments: { arguments -> String in
        let base = arguments.object(at: 1, as: Base.self) != nil
        let sub = arguments.object(at: 1, as: Sub.self) != nil
        let other = arguments.object(at: 1, as: Other.self) != nil
        return "\(base) \(sub) \(other)"
      })
    let (base, sub, other) = (Base(), Sub(), Other())
    try lua.globals().set("base", lua.userdata(base))
    try lua.globals().set("sub", lua.userdata(sub))
    try lua.globals().set("other", lua.userdata(other))
    #expect(
      try lua.run("return kinds(base), kinds(sub), kinds(other), kinds(1)") == [
        "true false false", "true true false", "false false true", "false false false",
      ])
    withExtendedLifetime((base, sub, other)) {}
  }
}
