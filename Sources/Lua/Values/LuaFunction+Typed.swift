import CLua
import CLuaShim

extension LuaFunction {
  /// Calls the function with typed arguments and converts its first result, without
  /// building arrays: each argument is pushed straight onto the Lua stack, and only one
  /// result is kept. The fast path for calls with a few scalar arguments.
  ///
  /// ```swift
  /// let sum = try add.call(Int64(2), 3.5, returning: Double.self)   // 5.5
  /// ```
  /// A missing result converts from `nil`. Where the variadic ``call(_:returning:)`` also
  /// fits (no arguments, or `LuaValue` literals), that one is chosen; both behave the same.
  /// - Throws: ``LuaError`` raised by the function (with its traceback), a `conversion`
  ///   error when the result does not fit `Result`, or `usage` on a closed state.
  @_disfavoredOverload
  public func call<each Argument: LuaConvertible, Result: LuaConvertible>(
    _ arguments: repeat each Argument, returning type: Result.Type
  ) throws -> Result {
    let stack = try LuaStack(reference.core)
    let base = stack.top
    var count: Int32 = 0
    for _ in repeat each arguments { count += 1 }
    try stack.reserve(Int(count) + 4)
    defer { lua_settop(stack.L, base) }
    // The message handler goes first, so the call needs no stack rotation (lh_pcallh).
    lh_pushmsgh(stack.L)
    try stack.push(reference)
    // Scalars push themselves; other values are made in the state (see `_push`).
    let pushes = LuaArguments(stack: stack, base: base, count: 0)
    for argument in repeat each arguments { try argument._push(pushes) }
    try stack.callAboveHandler(arguments: count, results: 1)
    // The result sits above the handler, at base + 2, read in place as a conversion: a
    // value that does not fit is a `conversion` error, as `init(luaValue:)` gives.
    return try Result(luaValue: stack.value(at: base + 2))
  }
}

extension LuaFunction {
  /// Calls the function with typed arguments and converts its first results to the
  /// elements of a tuple type, in order; a missing result converts from `nil`. Like the
  /// one-result typed call, it builds no arrays.
  ///
  /// ```swift
  /// let (quotient, remainder) = try divmod.call(7, 2, returning: (Int, Int).self)
  /// try log.call("done", returning: Void.self)   // no result wanted
  /// ```
  /// - Throws: ``LuaError`` raised by the function (with its traceback), a `conversion`
  ///   error naming the result (`result #2: …`) that does not fit, or `usage` on a closed
  ///   state.
  @_disfavoredOverload
  public func call<each Argument: LuaConvertible, each Result: LuaConvertible>(
    _ arguments: repeat each Argument, returning types: (repeat each Result).Type
  ) throws -> (repeat each Result) {
    let stack = try LuaStack(reference.core)
    let base = stack.top
    var count: Int32 = 0
    for _ in repeat each arguments { count += 1 }
    var wanted: Int32 = 0
    for _ in repeat (each Result).self { wanted += 1 }
    // Room for the handler, the function and the arguments, then for the results.
    try stack.reserve(Int(max(count, wanted)) + 4)
    defer { lua_settop(stack.L, base) }
    lh_pushmsgh(stack.L)
    try stack.push(reference)
    let pushes = LuaArguments(stack: stack, base: base, count: 0)
    for argument in repeat each arguments { try argument._push(pushes) }
    try stack.callAboveHandler(arguments: count, results: wanted)
    // The results sit above the handler, at base + 2 …; Lua pads missing ones with nil.
    var position: Int32 = 0
    func next<T: LuaConvertible>(_ type: T.Type) throws -> T {
      position += 1
      do {
        return try T(luaValue: stack.value(at: base + 1 + position))
      } catch let error as LuaError where error.kind == .conversion {
        throw LuaError(conversion: "result #\(position): \(error.message)")
      }
    }
    return (repeat try next((each Result).self))
  }
}
