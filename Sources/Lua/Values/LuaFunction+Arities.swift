// The typed call for one, two and three arguments, written out. The compiler specialises a
// parameter pack's loop but still calls each element's conversion through its protocol
// witness (about 60 instructions an argument); with fixed arities every push and read is
// specialised and inlined. Each behaves exactly as the variadic `call(_:returning:)`.

extension LuaFunction {
  /// Calls the function with one typed argument and converts its first result: the
  /// variadic typed `call(_:returning:)` for one argument, specialised.
  /// - Throws: as the variadic typed call does.
  @inlinable @_disfavoredOverload
  public func call<A: LuaConvertible, Result: LuaConvertible>(
    _ a: A, returning type: Result.Type
  ) throws -> Result {
    let call = try LuaArguments(beginning: self, arguments: 1, results: 1)
    defer { call._end() }
    try a._push(call)
    return try call._finish(arguments: 1, returning: Result.self)
  }

  /// Calls the function with two typed arguments and converts its first result: the
  /// variadic typed `call(_:returning:)` for two arguments, specialised.
  /// - Throws: as the variadic typed call does.
  @inlinable @_disfavoredOverload
  public func call<A: LuaConvertible, B: LuaConvertible, Result: LuaConvertible>(
    _ a: A, _ b: B, returning type: Result.Type
  ) throws -> Result {
    let call = try LuaArguments(beginning: self, arguments: 2, results: 1)
    defer { call._end() }
    try a._push(call)
    try b._push(call)
    return try call._finish(arguments: 2, returning: Result.self)
  }

  /// Calls the function with three typed arguments and converts its first result: the
  /// variadic typed `call(_:returning:)` for three arguments, specialised.
  /// - Throws: as the variadic typed call does.
  @inlinable @_disfavoredOverload
  public func call<A: LuaConvertible, B: LuaConvertible, C: LuaConvertible, Result: LuaConvertible>(
    _ a: A, _ b: B, _ c: C, returning type: Result.Type
  ) throws -> Result {
    let call = try LuaArguments(beginning: self, arguments: 3, results: 1)
    defer { call._end() }
    try a._push(call)
    try b._push(call)
    try c._push(call)
    return try call._finish(arguments: 3, returning: Result.self)
  }
}

extension LuaArguments {
  /// Runs a call begun by `LuaFunction._beginCall` whose arguments are pushed, and reads
  /// its first result in place. Not API.
  @inlinable
  func _finish<Result: LuaConvertible>(arguments: Int32, returning type: Result.Type) throws
    -> Result
  {
    try _run(arguments: arguments, results: 1)
    // A value that does not fit is a `conversion` error, as from `init(luaValue:)`.
    return try Result._readValue(_results(1), at: 1)
  }
}
