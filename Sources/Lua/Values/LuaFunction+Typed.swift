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
  @inlinable
  public func call<each Argument: LuaConvertible, Result: LuaConvertible>(
    _ arguments: repeat each Argument, returning type: Result.Type
  ) throws -> Result {
    // Inlinable so that it is specialised for the caller's types; the Lua work is in the
    // non-generic helpers below.
    let call = try _beginCall()
    defer { call.end() }
    var count: Int32 = 0
    for argument in repeat each arguments {
      try call.push(argument.luaValue(in: call.state))
      count += 1
    }
    return try Result(luaValue: call.finish(arguments: count))
  }

  /// Pushes the message handler and the function. Not API: used by the inlinable `call`.
  @usableFromInline
  func _beginCall() throws -> _PendingCall {
    let core = reference.core
    let stack = try LuaStack(core)
    guard let state = core.owner else { throw LuaError(usage: "the Lua state is closed") }
    let base = stack.top
    try stack.reserve(4)
    lh_pushmsgh(stack.L)
    try stack.push(reference)
    return _PendingCall(stack: stack, base: base, state: state)
  }
}

/// A call being set up on the stack: message handler, function, arguments. Not API.
@usableFromInline
struct _PendingCall {
  let stack: LuaStack
  let base: Int32
  @usableFromInline unowned(unsafe) let state: LuaState

  init(stack: LuaStack, base: Int32, state: LuaState) {
    self.stack = stack
    self.base = base
    self.state = state
  }

  /// Pushes one argument. [-0, +1]
  @usableFromInline
  func push(_ value: LuaValue) throws {
    try stack.reserve(1)
    try stack.push(value)
  }

  /// Calls with `arguments` values pushed and returns the first result.
  @usableFromInline
  func finish(arguments: Int32) throws -> LuaValue {
    try stack.callAboveHandler(arguments: arguments, results: 1)
    return stack.value(at: base + 2)
  }

  /// Restores the stack.
  @usableFromInline
  func end() { lua_settop(stack.L, base) }
}
