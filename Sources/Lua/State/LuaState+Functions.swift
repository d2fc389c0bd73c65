extension LuaState {
  /// A Lua function from a typed Swift closure: arguments are converted from Lua (a
  /// missing argument is `nil`), the result converted back.
  ///
  /// ```swift
  /// try lua.globals().set("add", .function(lua.function { (a: Int, b: Int) in a + b }))
  /// ```
  /// - Throws: `usage` when the state is closed. When called, a bad argument raises a
  ///   Lua error naming its position.
  public func function<each Argument: LuaConvertible, Result: LuaConvertible>(
    _ body: @escaping (repeat each Argument) throws -> Result
  ) throws -> LuaFunction {
    try function { [unowned self] arguments in
      var position = 0
      func next<T: LuaConvertible>(_ type: T.Type) throws -> T {
        position += 1
        let value = position <= arguments.count ? arguments[position - 1] : .nil
        do {
          return try T(luaValue: value)
        } catch let error as LuaError {
          throw LuaError(kind: .runtime, message: "bad argument #\(position) (\(error.message))")
        }
      }
      let result = try body(repeat try next((each Argument).self))
      return [try result.luaValue(in: self)]
    }
  }

  /// Sets the global `name` to a typed Swift closure (see ``function(_:)-(repeat(each Argument)->Result)``).
  /// - Throws: `usage` when the state is closed.
  public func register<each Argument: LuaConvertible, Result: LuaConvertible>(
    _ name: String, _ body: @escaping (repeat each Argument) throws -> Result
  ) throws {
    try globals().set(name, .function(function(body)))
  }
}
