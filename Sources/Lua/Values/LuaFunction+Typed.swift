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
    let core = reference.core
    let stack = try LuaStack(core)
    guard let state = core.owner else { throw LuaError(usage: "the Lua state is closed") }
    let base = stack.top
    var count: Int32 = 0
    for _ in repeat each arguments { count += 1 }
    try stack.reserve(Int(count) + 4)
    defer { lua_settop(stack.L, base) }
    // The message handler goes first, so the call needs no stack rotation (lh_pcallh).
    lh_pushmsgh(stack.L)
    try stack.push(reference)
    for argument in repeat each arguments { try stack.push(argument.luaValue(in: state)) }
    try stack.callAboveHandler(arguments: count, results: 1)
    return try Result(luaValue: stack.value(at: base + 2))
  }
}
