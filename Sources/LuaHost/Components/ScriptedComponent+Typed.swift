import Lua
import ViewTree

// MARK: - Typed properties

extension ScriptedComponent {
  /// Adds a typed property, read as `view.name` and, with a setter, written as
  /// `view.name = v`; it may take the place of `title`, `text` or `value` for views of
  /// this kind. The getter's value is converted with `luaValue(in:)` (an array or a
  /// dictionary becomes a new table); a new value is converted to `Value`, and one that
  /// does not convert raises "bad value for property 'name' of kind (…)" in Lua.
  ///
  /// ```swift
  /// slider.property("value", get: { model($0).value }, set: { model($0).value = $1 })
  /// list.property("titles", get: { store(of: $0).tasks.map(\.title) })   // a table
  /// label.property("caption", get: { $0.properties["caption"] }, set: { $0.properties["caption"] = $1 })
  /// ```
  @inlinable
  public mutating func property<Value: LuaConvertible>(
    _ name: String, get: @escaping (View) throws -> Value,
    set: ((View, Value) throws -> Void)? = nil
  ) {
    getters[name] = { view, lua in try get(view).luaValue(in: lua) }
    setters[name] = set.map { set in typedSetter(name, set) }
  }

  /// Adds a typed property whose getter also receives the tree's state, for a value built
  /// by hand (a table with a metatable, say); otherwise like the typed
  /// `property(_:get:set:)`.
  @inlinable
  public mutating func property<Value: LuaConvertible>(
    _ name: String, get: @escaping (View, LuaState) throws -> Value,
    set: ((View, Value) throws -> Void)? = nil
  ) {
    getters[name] = { view, lua in try get(view, lua).luaValue(in: lua) }
    setters[name] = set.map { set in typedSetter(name, set) }
  }

  /// A setter that converts the new value, naming the property when it does not convert.
  @inlinable
  func typedSetter<Value: LuaConvertible>(
    _ name: String, _ set: @escaping (View, Value) throws -> Void
  ) -> Setter {
    let kind = self.name
    return { view, value in try set(view, Value(luaValue: value, property: name, of: kind)) }
  }
}

// MARK: - Typed methods

extension ScriptedComponent {
  /// Adds a typed method, called as `view:name(…)`: the arguments after `self` are
  /// converted to the closure's parameter types (a missing one converts from `nil`), and
  /// the result is converted back with `luaValue(in:)`.
  ///
  /// ```swift
  /// list.method("add_task") { (view: View, title: String) in
  ///   try store(of: view).add(title)
  ///   return store(of: view).tasks.count
  /// }
  /// ```
  /// A bad argument raises "bad argument #1 to 'add_task' (string expected, got nil)" in
  /// Lua. Arguments are read in place on the Lua stack: no arrays per call.
  @inlinable
  public mutating func method<each Argument: LuaConvertible, Result: LuaConvertible>(
    _ name: String, _ body: @escaping (View, repeat each Argument) throws -> Result
  ) {
    methods[name] = .inPlace { lua, receiver in
      try lua.function(arguments: { arguments in
        try View.treeLock.withLock {
          let view = try receiver(arguments)
          let values = try arguments.afterSelf(method: name).convert(
            to: repeat (each Argument).self)
          return try body(view, repeat each values)
        }
      })
    }
  }

  /// Adds a typed method that returns nothing (`Void`: Lua gets no result) or a tuple
  /// (Lua gets each element as one result).
  ///
  /// ```swift
  /// list.method("complete") { (view: View, number: Int) in try store(of: view).complete(number - 1) }
  /// ```
  /// Where the one-result form also fits, that one is chosen.
  @inlinable @_disfavoredOverload
  public mutating func method<each Argument: LuaConvertible, each Result: LuaConvertible>(
    _ name: String, _ body: @escaping (View, repeat each Argument) throws -> (repeat each Result)
  ) {
    methods[name] = .inPlace { lua, receiver in
      try lua.function(arguments: { arguments -> (repeat each Result) in
        try View.treeLock.withLock {
          let view = try receiver(arguments)
          let values = try arguments.afterSelf(method: name).convert(
            to: repeat (each Argument).self)
          return try body(view, repeat each values)
        }
      })
    }
  }

  /// Adds a typed method whose closure also receives the tree's state, for a result built
  /// by hand; otherwise like the typed `method(_:_:)`.
  ///
  /// ```swift
  /// list.method("summary") { (view: View, lua: LuaState) in
  ///   let table = try lua.makeTable()
  ///   try table.set("open", .integer(Int64(store(of: view).openCount)))
  ///   return table
  /// }
  /// ```
  @inlinable
  public mutating func method<each Argument: LuaConvertible, Result: LuaConvertible>(
    _ name: String, _ body: @escaping (View, LuaState, repeat each Argument) throws -> Result
  ) {
    methods[name] = .inPlace { lua, receiver in
      try lua.function(arguments: { arguments in
        try View.treeLock.withLock {
          let view = try receiver(arguments)
          let values = try arguments.afterSelf(method: name).convert(
            to: repeat (each Argument).self)
          return try body(view, arguments.state, repeat each values)
        }
      })
    }
  }
}
