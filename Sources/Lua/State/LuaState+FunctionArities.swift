// The typed `function` and `register` for one, two and three arguments, written out. A
// parameter pack's conversions are called through their protocol witnesses even when the
// pack is specialised (about 50 instructions an argument); with fixed arities each read is
// specialised and inlined. Each behaves exactly as the variadic one-result form.

extension LuaState {
  /// A Lua function from a typed Swift closure of one argument: the variadic typed
  /// `function(_:)` for one argument, specialised.
  /// - Throws: as the variadic typed `function(_:)` does.
  @inlinable
  public func function<A: LuaConvertible, Result: LuaConvertible>(
    _ body: @escaping (A) throws -> Result
  ) throws -> LuaFunction {
    try _function(stack: { stack in
      let arguments = LuaArguments(uncounted: stack)
      // One result needs no room check: Lua gives a C function LUA_MINSTACK free slots.
      try body(A._read(arguments, at: 1))._push(arguments)
      return 1
    })
  }

  /// A Lua function from a typed Swift closure of two arguments: the variadic typed
  /// `function(_:)` for two arguments, specialised.
  /// - Throws: as the variadic typed `function(_:)` does.
  @inlinable
  public func function<A: LuaConvertible, B: LuaConvertible, Result: LuaConvertible>(
    _ body: @escaping (A, B) throws -> Result
  ) throws -> LuaFunction {
    try _function(stack: { stack in
      let arguments = LuaArguments(uncounted: stack)
      try body(A._read(arguments, at: 1), B._read(arguments, at: 2))._push(arguments)
      return 1
    })
  }

  /// A Lua function from a typed Swift closure of three arguments: the variadic typed
  /// `function(_:)` for three arguments, specialised.
  /// - Throws: as the variadic typed `function(_:)` does.
  @inlinable
  public func function<
    A: LuaConvertible, B: LuaConvertible, C: LuaConvertible, Result: LuaConvertible
  >(
    _ body: @escaping (A, B, C) throws -> Result
  ) throws -> LuaFunction {
    try _function(stack: { stack in
      let arguments = LuaArguments(uncounted: stack)
      try body(
        A._read(arguments, at: 1), B._read(arguments, at: 2), C._read(arguments, at: 3)
      )._push(arguments)
      return 1
    })
  }

  /// Sets the global `name` to a typed Swift closure of one argument (see the typed
  /// `function(_:)`).
  /// - Throws: `usage` when the state is closed.
  @inlinable
  public func register<A: LuaConvertible, Result: LuaConvertible>(
    _ name: String, _ body: @escaping (A) throws -> Result
  ) throws {
    try globals().set(name, .function(function(body)))
  }

  /// Sets the global `name` to a typed Swift closure of two arguments (see the typed
  /// `function(_:)`).
  /// - Throws: `usage` when the state is closed.
  @inlinable
  public func register<A: LuaConvertible, B: LuaConvertible, Result: LuaConvertible>(
    _ name: String, _ body: @escaping (A, B) throws -> Result
  ) throws {
    try globals().set(name, .function(function(body)))
  }

  /// Sets the global `name` to a typed Swift closure of three arguments (see the typed
  /// `function(_:)`).
  /// - Throws: `usage` when the state is closed.
  @inlinable
  public func register<
    A: LuaConvertible, B: LuaConvertible, C: LuaConvertible, Result: LuaConvertible
  >(
    _ name: String, _ body: @escaping (A, B, C) throws -> Result
  ) throws {
    try globals().set(name, .function(function(body)))
  }
}
