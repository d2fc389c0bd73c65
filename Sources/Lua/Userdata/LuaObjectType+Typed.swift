// MARK: - Typed methods

extension LuaObjectType {
  /// Adds a typed method, called as `object:name(…)`: the arguments after `self` are
  /// converted to the closure's parameter types (a missing one converts from `nil`), and
  /// the result is converted back.
  ///
  /// ```swift
  /// type.method("add") { (counter: Counter, step: Int) in counter.value += step; return counter.value }
  /// ```
  /// A bad argument raises "bad argument #1 to 'add' (integer expected, got string)"; a
  /// call on anything but an object of this type raises "bad self: …". Arguments are read
  /// in place, as the typed `LuaState.function(_:)` reads them: no arrays per call.
  @inlinable
  public mutating func method<each Argument: LuaConvertible, Result: LuaConvertible>(
    _ name: String, _ body: @escaping (Object, repeat each Argument) throws -> Result
  ) {
    let typeName = self.name
    methods[name] = { state in
      try state._function(results: { arguments in
        try arguments.withReceiver(as: Object.self, typeName: typeName) { object in
          let values = try arguments.afterSelf(method: name).convert(
            to: repeat (each Argument).self)
          // One result needs no room check: Lua gives a C function LUA_MINSTACK free slots.
          try body(object, repeat each values)._push(arguments)
          return 1
        }
      })
    }
  }

  /// Adds a typed method that returns nothing (`Void`: Lua gets no result) or a tuple
  /// (Lua gets each element as one result).
  ///
  /// ```swift
  /// type.method("reset") { (counter: Counter) in counter.value = 0 }
  /// ```
  /// Where the one-result form also fits, that one is chosen.
  @inlinable @_disfavoredOverload
  public mutating func method<each Argument: LuaConvertible, each Result: LuaConvertible>(
    _ name: String, _ body: @escaping (Object, repeat each Argument) throws -> (repeat each Result)
  ) {
    let typeName = self.name
    methods[name] = { state in
      try state._function(results: { arguments in
        try arguments.withReceiver(as: Object.self, typeName: typeName) { object in
          let values = try arguments.afterSelf(method: name).convert(
            to: repeat (each Argument).self)
          let results = try body(object, repeat each values)
          return try arguments.push(repeat each results)
        }
      })
    }
  }

  /// Adds a typed method whose closure also receives the state, for a result built by
  /// hand (a table with a metatable, say); otherwise like the typed `method(_:_:)`.
  ///
  /// ```swift
  /// type.method("snapshot") { (counter: Counter, lua: LuaState) in
  ///   let table = try lua.makeTable()
  ///   try table.set("value", .integer(Int64(counter.value)))
  ///   return table
  /// }
  /// ```
  @inlinable
  public mutating func method<each Argument: LuaConvertible, Result: LuaConvertible>(
    _ name: String, _ body: @escaping (Object, LuaState, repeat each Argument) throws -> Result
  ) {
    let typeName = self.name
    methods[name] = { state in
      try state._function { arguments in
        try arguments.withReceiver(as: Object.self, typeName: typeName) { object in
          let values = try arguments.afterSelf(method: name).convert(
            to: repeat (each Argument).self)
          let state = try arguments.state
          return try body(object, state, repeat each values).luaValue(in: state)
        }
      }
    }
  }
}

// MARK: - Typed properties

extension LuaObjectType {
  /// Adds a typed property, read as `object.name` and, with a setter, written as
  /// `object.name = value`. The getter's value is converted with `luaValue(in:)` (an array
  /// or a dictionary becomes a new table); a new value is converted to `Value`, and one
  /// that does not convert raises "bad value for property 'name' of Type (…)".
  ///
  /// ```swift
  /// type.property("value", get: { $0.value }, set: { $0.value = $1 })   // an Int
  /// type.property("tags", get: { $0.tags })                              // [String]: a table
  /// ```
  @inlinable
  public mutating func property<Value: LuaConvertible>(
    _ name: String, get: @escaping (Object) throws -> Value,
    set: ((Object, Value) throws -> Void)? = nil
  ) {
    getters[name] = { object, state in try get(object).luaValue(in: state) }
    readers[name] = { object, arguments in
      try get(unsafeDowncast(object, to: Object.self))._push(arguments)
    }
    setters[name] = set.map { set in typedSetter(name, set) }
  }

  /// Adds a typed property whose getter also receives the state, for a value built by
  /// hand; otherwise like the typed `property(_:get:set:)`.
  @inlinable
  public mutating func property<Value: LuaConvertible>(
    _ name: String, get: @escaping (Object, LuaState) throws -> Value,
    set: ((Object, Value) throws -> Void)? = nil
  ) {
    getters[name] = { object, state in try get(object, state).luaValue(in: state) }
    readers[name] = { object, arguments in
      try get(unsafeDowncast(object, to: Object.self), arguments.state)._push(arguments)
    }
    setters[name] = set.map { set in typedSetter(name, set) }
  }

  /// A setter that converts the new value, naming the property when it does not convert.
  @inlinable
  func typedSetter<Value: LuaConvertible>(
    _ name: String, _ set: @escaping (Object, Value) throws -> Void
  ) -> (Object, LuaValue) throws -> Void {
    let typeName = self.name
    return { object, value in
      try set(object, Value(luaValue: value, property: name, of: typeName))
    }
  }
}
