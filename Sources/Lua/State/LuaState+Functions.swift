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
    try _function(results: { arguments in
      var position = 0
      func next<T: LuaConvertible>(_ type: T.Type) throws -> T {
        position += 1
        return try T._read(arguments, at: position)
      }
      // One result needs no room check: Lua gives a C function LUA_MINSTACK free slots.
      try body(repeat try next((each Argument).self))._push(arguments)
      return 1
    })
  }

  /// A Lua function from a typed Swift closure that returns nothing (`Void`: Lua gets no
  /// result) or a tuple (Lua gets each element as one result, in order).
  ///
  /// ```swift
  /// let log = try lua.function { (line: String) in print(line) }
  /// let split = try lua.function { (n: Int, d: Int) in (n / d, n % d) }  // 2 results
  /// ```
  /// Where the one-result `function(_:)` also fits (a single-expression closure with a
  /// `LuaConvertible` value), that one is chosen.
  /// - Throws: `usage` when the state is closed. When called, a bad argument raises a
  ///   Lua error naming its position.
  @inlinable @_disfavoredOverload
  public func function<each Argument: LuaConvertible, each Result: LuaConvertible>(
    _ body: @escaping (repeat each Argument) throws -> (repeat each Result)
  ) throws -> LuaFunction {
    // Disfavoured: `Void` and tuples match only this one, a single value both; the
    // arguments are read in place and the results pushed in place, as above.
    try _function(results: { arguments in
      let values = try arguments.convert(to: repeat (each Argument).self)
      let results = try body(repeat each values)
      return try arguments.push(repeat each results)
    })
  }

  /// Sets the global `name` to a typed Swift closure (see the typed `function(_:)`).
  /// - Throws: `usage` when the state is closed.
  @inlinable  // so that `function(_:)` is specialised for the caller's types
  public func register<each Argument: LuaConvertible, Result: LuaConvertible>(
    _ name: String, _ body: @escaping (repeat each Argument) throws -> Result
  ) throws {
    try globals().set(name, .function(function(body)))
  }

  /// Sets the global `name` to a typed Swift closure that returns nothing or a tuple
  /// (see the typed `function(_:)` for those).
  ///
  /// ```swift
  /// try lua.register("log") { (line: String) in print(line) }
  /// ```
  /// - Throws: `usage` when the state is closed.
  @inlinable @_disfavoredOverload
  public func register<each Argument: LuaConvertible, each Result: LuaConvertible>(
    _ name: String, _ body: @escaping (repeat each Argument) throws -> (repeat each Result)
  ) throws {
    try globals().set(name, .function(function(body)))
  }
}
