extension LuaState {
  /// A Lua function from a typed Swift closure: arguments are converted from Lua (a
  /// missing argument is `nil`), the result converted back.
  ///
  /// ```swift
  /// try lua.globals().set("add", .function(lua.function { (a: Int, b: Int) in a + b }))
  /// ```
  /// - Throws: `usage` when the state is closed. When called, a bad argument raises a
  ///   Lua error naming its position.
  @inlinable
  public func function<each Argument: LuaConvertible, Result: LuaConvertible>(
    _ body: @escaping (repeat each Argument) throws -> Result
  ) throws -> LuaFunction {
    // Inlinable so that the conversions are specialised for the caller's types; the
    // arguments are read in place (LuaArguments), with no [LuaValue] arrays.
    try _function { arguments in
      var position = 0
      func next<T: LuaConvertible>(_ type: T.Type) throws -> T {
        position += 1
        return try arguments.convert(at: position, to: T.self)
      }
      return try body(repeat try next((each Argument).self)).luaValue(in: arguments.state)
    }
  }

  /// Sets the global `name` to a typed Swift closure (see the typed `function(_:)`).
  /// - Throws: `usage` when the state is closed.
  public func register<each Argument: LuaConvertible, Result: LuaConvertible>(
    _ name: String, _ body: @escaping (repeat each Argument) throws -> Result
  ) throws {
    try globals().set(name, .function(function(body)))
  }
}
