import CLua

extension LuaState {
  /// Registers how objects of `type` appear in Lua. Objects pushed afterwards (with
  /// ``userdata(_:)``) get these methods, properties and metamethods.
  ///
  /// ```swift
  /// try lua.register(Counter.self, name: "Counter") { type in
  ///   type.method("increment") { counter, _ in counter.value += 1; return [] }
  ///   type.property("value", get: { .integer(Int64($0.value)) })
  /// }
  /// ```
  /// - Throws: `usage` when the state is closed.
  public func register<Object: AnyObject>(
    _ type: Object.Type, name: String, _ build: (inout LuaObjectType<Object>) -> Void
  ) throws {
    var description = LuaObjectType<Object>(name: name)
    build(&description)
    let stack = try LuaStack(core)
    try stack.reserve(8)
    lua_createtable(stack.L, 0, 8)
    stack.push(name)
    stack.setField("__name")
    stack.push(name)
    stack.setField("__metatable")
    let methods = try description.methods.mapValues { method in
      try function { arguments in
        try method(
          Self.unwrap(arguments.first, as: Object.self, name: name), Array(arguments.dropFirst()))
      }
    }
    let getters = description.getters
    let setters = description.setters
    let fallbackGet = description.fallbackGet
    let fallbackSet = description.fallbackSet
    try stack.push(
      LuaCallback(
        core: core,
        values: { arguments in
          let object = try Self.unwrap(arguments.first, as: Object.self, name: name)
          let key = arguments.count > 1 ? arguments[1] : .nil
          if case .string(let text) = key, let field = text.string {
            if let getter = getters[field] { return [try getter(object)] }
            if let method = methods[field] { return [.function(method)] }
          }
          return [try fallbackGet?(object, key) ?? .nil]
        }))
    stack.setField("__index")
    try stack.push(
      LuaCallback(
        core: core,
        values: { arguments in
          let object = try Self.unwrap(arguments.first, as: Object.self, name: name)
          let key = arguments.count > 1 ? arguments[1] : .nil
          guard case .string(let text) = key, let field = text.string, let setter = setters[field]
          else {
            if let fallbackSet, getters[key.description] == nil {
              try fallbackSet(object, key, arguments.count > 2 ? arguments[2] : .nil)
              return []
            }
            let what = getters[key.description] != nil ? "read-only property" : "field"
            throw LuaError(kind: .runtime, message: "cannot set \(what) '\(key)' of \(name)")
          }
          try setter(object, arguments.count > 2 ? arguments[2] : .nil)
          return []
        }))
    stack.setField("__newindex")
    if description.metamethods[.tostring] == nil {
      try stack.push(
        LuaCallback(core: core) { stack, _ in
          stack.push("\(name): \(lua_topointer(stack.L, 1).map { "\($0)" } ?? "?")")
          return 1
        })
      stack.setField("__tostring")
    }
    for (event, body) in description.metamethods {
      try stack.push(LuaCallback(core: core, values: body))
      stack.setField(event.rawValue)
    }
    stack.setMetatable(forType: ObjectIdentifier(type), name: name)
    core.objectMemberNames[ObjectIdentifier(type)] =
      (Array(description.methods.keys) + Array(description.getters.keys)).sorted()
    core.objectGetters[ObjectIdentifier(type)] = description.getters.mapValues { getter in
      { object in try getter(object as! Object) }
    }
  }

  static func unwrap<Object: AnyObject>(_ value: LuaValue?, as type: Object.Type, name: String)
    throws -> Object
  {
    guard case .userdata(let userdata) = value, let object = userdata.object(as: type) else {
      throw LuaError(
        kind: .runtime,
        message: "bad self: \(name) expected, got \(value?.typeName ?? "no value")")
    }
    return object
  }
}
