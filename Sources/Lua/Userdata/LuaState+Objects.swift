import CLua

extension LuaState {
  /// Registers how objects of `type` appear in Lua. Objects pushed afterwards (with
  /// ``userdata(_:)``) get these methods, properties and metamethods.
  ///
  /// ```swift
  /// try lua.register(Counter.self, name: "Counter") { type in
  ///   type.method("increment") { counter, _ in counter.value += 1; return [] }
  ///   type.property("value", get: { .integer(Int64($0.value)) })
  ///   // Typed: Swift values in and out (see LuaObjectType).
  ///   type.method("add") { (counter: Counter, step: Int) in counter.value += step }
  ///   type.property("count", get: { $0.value }, set: { $0.value = $1 })
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
    let methods = try description.methods.mapValues { make in try make(self) }
    let getters = description.getters
    let setters = description.setters
    let fallbackGet = description.fallbackGet
    let fallbackSet = description.fallbackSet
    // `__index` and `__newindex` read `self`, the key and the value in place: a property
    // read or write builds no arrays, and makes no reference to the userdata.
    try stack.push(
      LuaCallback(core: core) { stack, argc in
        let arguments = LuaArguments(stack: stack, count: argc)
        let object = try arguments.receiver(as: Object.self, typeName: name)
        let field = arguments.text(at: 2)
        let result: LuaValue
        if let field, let getter = getters[field] {
          result = try getter(object, arguments.state)
        } else if let field, let method = methods[field] {
          result = .function(method)
        } else {
          result = try fallbackGet?(object, arguments[2]) ?? .nil
        }
        try arguments.push(result)
        return 1
      })
    stack.setField("__index")
    try stack.push(
      LuaCallback(core: core) { stack, argc in
        let arguments = LuaArguments(stack: stack, count: argc)
        let object = try arguments.receiver(as: Object.self, typeName: name)
        if let field = arguments.text(at: 2), let setter = setters[field] {
          try setter(object, arguments[3])
          return 0
        }
        let key = arguments[2]
        if let fallbackSet, getters[key.description] == nil {
          try fallbackSet(object, key, arguments[3])
          return 0
        }
        let what = getters[key.description] != nil ? "read-only property" : "field"
        throw LuaError(kind: .runtime, message: "cannot set \(what) '\(key)' of \(name)")
      })
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
      { object, state in try getter(object as! Object, state) }
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
