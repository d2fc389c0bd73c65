import Lua
import Testing

/// The typed calls and functions of one to three arguments are written out for speed
/// (LuaFunction+Arities.swift, LuaState+FunctionArities.swift): they must behave exactly as
/// the variadic forms, which a generic pack here forces.
@Suite(.timeLimit(.minutes(30))) struct FixedArityTests {
  let lua: LuaState
  init() throws { lua = try LuaState() }

  /// The variadic typed function: inside a pack, no fixed arity can be chosen.
  func variadic<each A: LuaConvertible, R: LuaConvertible>(
    _ body: @escaping (repeat each A) throws -> R
  ) throws -> LuaFunction {
    try lua.function(body)
  }

  /// The variadic typed call.
  func variadicCall<each A: LuaConvertible, R: LuaConvertible>(
    _ function: LuaFunction, _ arguments: repeat each A, returning type: R.Type
  ) throws -> R {
    try function.call(repeat each arguments, returning: R.self)
  }

  func outcome(_ body: () throws -> LuaValue) -> String {
    do {
      return "\(try body())"
    } catch let error as LuaError {
      return "\(error.kind): \(error.message)"
    } catch {
      return "\(error)"
    }
  }

  @Test(arguments: ["1, 2, 3", "1, 'x', 3", "1, 2, 'y'", "'z', 2, 3", "1.0, 2.5, 3", "1", ""])
  func functionsMatchTheVariadicForm(arguments: String) throws {
    let fixed: [LuaFunction] = [
      try lua.function { (a: Int) in "\(a)" },
      try lua.function { (a: Int, b: Double) in "\(a) \(b)" },
      try lua.function { (a: Int, b: Double, c: Int64) in "\(a) \(b) \(c)" },
    ]
    let reference: [LuaFunction] = [
      try variadic { (a: Int) in "\(a)" },
      try variadic { (a: Int, b: Double) in "\(a) \(b)" },
      try variadic { (a: Int, b: Double, c: Int64) in "\(a) \(b) \(c)" },
    ]
    let run = try LuaFunction(
      luaValue: lua.run("return function(f, ...) return select(2, pcall(f, ...)) end")[0])
    let values = try lua.run("return \(arguments.isEmpty ? "nil" : arguments)")
    for (ours, theirs) in zip(fixed, reference) {
      let got = outcome { try run.call(arguments: [.function(ours)] + values).first ?? .nil }
      let want = outcome { try run.call(arguments: [.function(theirs)] + values).first ?? .nil }
      #expect(got == want, "\(arguments)")
    }
    // A bad second or third argument names its own position.
    if arguments == "1, 'x', 3" {
      #expect(
        outcome { try run.call(arguments: [.function(fixed[2])] + values)[0] }
          .contains("bad argument #2"))
    }
  }

  @Test(arguments: [
    "a + b + c", "tostring(a)", "error('no ' .. a)", "nil", "a, b, c",
    "string.format('%s|%s|%s', a, b, c)",
  ])
  func callsMatchTheVariadicForm(body: String) throws {
    let function = try LuaFunction(
      luaValue: lua.run("return function(a, b, c) return \(body) end", name: "=f")[0])
    // Typed values, not literals: a literal argument picks the `LuaValue...` call.
    let (one, two, three): (Int64, String, Double) = (1, "y", 2.5)
    let pairs: [(String, String)] = [
      (
        outcome { .integer(try function.call(one, returning: Int64.self)) },
        outcome { .integer(try variadicCall(function, one, returning: Int64.self)) }
      ),
      (
        outcome { try function.call(two, returning: LuaValue.self) },
        outcome { try variadicCall(function, two, returning: LuaValue.self) }
      ),
      (
        outcome { try function.call(one, two, returning: LuaValue.self) },
        outcome { try variadicCall(function, one, two, returning: LuaValue.self) }
      ),
      (
        outcome { .number(try function.call(one, three, returning: Double.self)) },
        outcome { .number(try variadicCall(function, one, three, returning: Double.self)) }
      ),
      (
        outcome { try function.call(three, two, one, returning: LuaValue.self) },
        outcome { try variadicCall(function, three, two, one, returning: LuaValue.self) }
      ),
      (
        outcome { .string(LuaString(try function.call(one, one, one, returning: String.self))) },
        outcome {
          .string(LuaString(try variadicCall(function, one, one, one, returning: String.self)))
        }
      ),
    ]
    for (got, want) in pairs { #expect(got == want, "\(body)") }
    #expect(lua.stackTop == 0)
  }
}
