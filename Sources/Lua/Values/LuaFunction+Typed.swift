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
  @inlinable @_disfavoredOverload  // specialised for the caller's types: no generic pushes or reads
  public func call<each Argument: LuaConvertible, Result: LuaConvertible>(
    _ arguments: repeat each Argument, returning type: Result.Type
  ) throws -> Result {
    var count: Int32 = 0
    for _ in repeat each arguments { count += 1 }
    let call = try LuaArguments(beginning: self, arguments: count, results: 1)
    defer { call._end() }
    // Scalars push themselves; other values are made in the state (see `_push`).
    for argument in repeat each arguments { try argument._push(call) }
    return try call._finish(arguments: count, returning: Result.self)
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
  @inlinable @_disfavoredOverload  // specialised for the caller's types
  public func call<each Argument: LuaConvertible, each Result: LuaConvertible>(
    _ arguments: repeat each Argument, returning types: (repeat each Result).Type
  ) throws -> (repeat each Result) {
    var count: Int32 = 0
    for _ in repeat each arguments { count += 1 }
    var wanted: Int32 = 0
    for _ in repeat (each Result).self { wanted += 1 }
    let call = try LuaArguments(beginning: self, arguments: count, results: wanted)
    defer { call._end() }
    for argument in repeat each arguments { try argument._push(call) }
    try call._run(arguments: count, results: wanted)
    // Lua pads missing results with nil.
    let results = call._results(wanted)
    var position = 0
    func next<T: LuaConvertible>(_ type: T.Type) throws -> T {
      position += 1
      do {
        return try T._readValue(results, at: position)
      } catch let error as LuaError where error.kind == .conversion {
        throw LuaError.result(position, error)
      }
    }
    return (repeat try next((each Result).self))
  }

  /// Starts a typed call: makes room, pushes the message handler and the function, and
  /// returns the stack and the top below them. Not API. [-0, +2]
  @usableFromInline
  func _beginCall(arguments: Int32, results: Int32) throws -> (LuaStack, Int32) {
    // The stack is the reference's own state's, so the reference needs no state check.
    let stack = try LuaStack(reference.core)
    // Room for the handler, the function and the arguments, then for the results; the
    // message handler goes first, so the call needs no stack rotation (lh_pcallh).
    let room = Int(max(arguments, results)) + 4
    let base = room <= Int(Int32.max) ? lh_begincall(stack.L, reference.ref, Int32(room)) : -1
    if base < 0 { throw LuaError(usage: "stack overflow: cannot make room for \(room) Lua values") }
    return (stack, base)
  }
}

extension LuaArguments {
  /// Begins a typed call of `function` (see `LuaFunction._beginCall`): the vehicle for its
  /// arguments' pushes. Made inline, so that the caller knows it holds no method name.
  /// Not API.
  @inlinable
  init(beginning function: LuaFunction, arguments: Int32, results: Int32) throws {
    let (stack, base) = try function._beginCall(arguments: arguments, results: results)
    self.init(stack: stack, base: base, count: 0)
  }

  /// Runs a call begun by `LuaFunction._beginCall`, whose arguments are pushed. Not API.
  /// [-(arguments+1), +results] On error, pops the function and arguments and throws.
  @usableFromInline
  func _run(arguments: Int32, results: Int32) throws {
    try stack.callAboveHandler(arguments: arguments, results: results)
  }

  /// The first `count` results of a call begun by `LuaFunction._beginCall`: they sit above
  /// its message handler. Not API.
  @inlinable
  func _results(_ count: Int32) -> LuaArguments {
    LuaArguments(stack: stack, base: base + 1, count: count)
  }

  /// Ends a call begun by `LuaFunction._beginCall`: drops everything it left. Not API.
  @inlinable
  func _end() { lua_settop(stack.L, base) }
}

extension LuaError {
  /// The conversion error of a typed call's result `position`. Not API.
  @usableFromInline
  static func result(_ position: Int, _ error: LuaError) -> LuaError {
    LuaError(conversion: "result #\(position): \(error.message)")
  }
}
