import CBenchBaseline
import Lua

/// Cases 1–3: calls in both directions and the error path, against the raw C API.
struct CallCases {
  let repetitions: Int
  let scale: Double

  /// Case 1: Swift calls `function(a, b) return a + b end`.
  func swiftToLua() throws -> [Row] {
    let n = Int(Double(200_000) * scale)
    let lua = try LuaState()
    let add = try lua.load("return function(a, b) return a + b end").call(
      returning: LuaFunction.self)
    let C = cb_newstate()!
    defer { cb_close(C) }
    let ref = cb_ref_chunk(C, "return function(a, b) return a + b end")
    let medians = try Measure.interleaved(
      repetitions: repetitions,
      [
        {
          try Measure.perOp(n) {
            var sum: Int64 = 0
            for i in 0..<Int64(n) { sum &+= try add.call(i, 1, returning: Int64.self) }
            blackHole(sum)
          }
        },
        { Measure.perOp(n) { blackHole(cb_call_add(C, ref, Int64(n))) } },
        {
          try Measure.perOp(n / 4) {
            var sum: Int64 = 0
            for i in 0..<Int64(n / 4) {
              sum &+= try add.call(.integer(i), .integer(1), returning: Int64.self)
            }
            blackHole(sum)
          }
        },
        {
          try Measure.perOp(n / 4) {
            for i in 0..<Int64(n / 4) { blackHole(try add.call(arguments: [.integer(i), 1])) }
          }
        },
      ])
    return [
      Row(
        name: "1. Swift→Lua call `a+b` (typed call)", ours: medians[0], baseline: medians[1],
        target: 1.2),
      Row(
        name: "call(_: LuaValue..., returning:)", ours: medians[2], baseline: medians[1],
        isDetail: true),
      Row(
        name: "call(arguments:) → [LuaValue]", ours: medians[3], baseline: medians[1],
        isDetail: true),
    ]
  }

  /// Case 2: a Lua loop calls a registered function.
  func luaToSwift() throws -> [Row] {
    let n = Int(Double(200_000) * scale)
    let loop = "local add = add; local s = 0; for i = 1, \(n) do s = add(s, i) end; return s"
    let typed = try LuaState()
    try typed.register("add") { (a: Int64, b: Int64) in a &+ b }
    let typedLoop = try typed.load(loop)
    let arguments = try LuaState()
    try arguments.register(
      "add",
      arguments: { (arguments: LuaArguments) in
        try arguments.integer(at: 1) &+ arguments.integer(at: 2)
      })
    let argumentsLoop = try arguments.load(loop)
    let untyped = try LuaState()
    try untyped.register("add") { arguments in
      [.integer(try Int64(luaValue: arguments[0]) &+ Int64(luaValue: arguments[1]))]
    }
    let untypedLoop = try untyped.load(loop)
    let C = cb_newstate()!
    defer { cb_close(C) }
    cb_register_add(C)
    let ref = cb_ref_chunk(C, "return function() \(loop) end")
    let medians = try Measure.interleaved(
      repetitions: repetitions,
      [
        { try Measure.perOp(n) { blackHole(try typedLoop.call()) } },
        { Measure.perOp(n) { blackHole(cb_call0(C, ref)) } },
        { try Measure.perOp(n) { blackHole(try argumentsLoop.call()) } },
        { try Measure.perOp(n) { blackHole(try untypedLoop.call()) } },
      ])
    return [
      Row(
        name: "2. Lua→Swift `s = add(s, i)` (typed closure)", ours: medians[0],
        baseline: medians[1],
        target: 1.5),
      Row(name: "LuaArguments closure", ours: medians[2], baseline: medians[1], isDetail: true),
      Row(name: "[LuaValue] closure", ours: medians[3], baseline: medians[1], isDetail: true),
    ]
  }

  /// Case 3: `error()` three levels deep, caught in Swift with a traceback.
  func errorPath() throws -> [Row] {
    let n = Int(Double(20_000) * scale)
    let chunk = """
      local function c() error("boom") end
      local function b() c() end
      return function() b() return 0 end
      """
    let lua = try LuaState()
    let fail = try lua.load(chunk, name: "=bench").call(returning: LuaFunction.self)
    let C = cb_newstate()!
    defer { cb_close(C) }
    let ref = cb_ref_chunk(C, chunk)
    let medians = try Measure.interleaved(
      repetitions: repetitions,
      [
        {
          Measure.perOp(n) {
            for _ in 0..<n {
              do { try fail.call() } catch let error as LuaError {
                blackHole(error.traceback.depth)
              } catch {}
            }
          }
        },
        { Measure.perOp(n) { blackHole(cb_error_traceback(C, ref, Int64(n))) } },
        {
          Measure.perOp(n / 4) {
            for _ in 0..<n / 4 {
              do { try fail.call() } catch let error as LuaError {
                blackHole(error.traceback.description)
              } catch {}
            }
          }
        },
      ])
    return [
      Row(
        name: "3. error() caught in Swift, traceback recorded", ours: medians[0],
        baseline: medians[1],
        target: 1.5),
      Row(
        name: "…and traceback formatted as text", ours: medians[2], baseline: medians[1],
        isDetail: true),
    ]
  }
}
