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
    let readers = description.readers
    let setters = description.setters
    let fallbackGet = description.fallbackGet
    let fallbackSet = description.fallbackSet
    // The member names, interned in a Lua table (name → slot): `__index` finds a member
    // with one `lua_rawget` of the key as Lua holds it, making and hashing no Swift
    // `String`. A property shadows a method of the same name, as before.
    let members = memberSlots(readers: readers, methods: methods)
    lua_createtable(stack.L, 0, Int32(members.names.count))
    for (slot, member) in members.names.enumerated() {
      stack.push(member)
      lua_pushinteger(stack.L, lua_Integer(slot))
      lua_rawset(stack.L, -3)
    }
    let names = stack.reference(at: -1)
    stack.pop()
    let slots = members.slots
    // `__index` and `__newindex` read `self`, the key and the value in place: a property
    // read or write builds no arrays, and makes no reference to the userdata.
    try stack.push(
      LuaCallback(core: core) { stack, argc in
        let arguments = LuaArguments(stack: stack, count: argc)
        let object = try arguments.receiver(as: Object.self, typeName: name)
        if argc >= 2, lua_type(stack.L, 2) == LUA_TSTRING {
          // Room: Lua gives a C function LUA_MINSTACK free slots, and this uses three.
          try stack.push(names)
          lua_pushvalue(stack.L, 2)
          _ = lua_rawget(stack.L, -2)
          var found: Int32 = 0
          let slot = Int(lua_tointegerx(stack.L, -1, &found))
          lua_settop(stack.L, -3)
          if found != 0 {
            switch slots[slot] {
            case .read(let read): try read(object, arguments)
            case .method(let method): try stack.push(method.reference)
            }
            return 1
          }
        }
        try arguments.push(try fallbackGet?(object, arguments[2]) ?? .nil)
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

  /// What `__index` finds under a member name: a property reader (of an object that
  /// `__index` has checked is of the type) or a method. Not generic: `__index` runs
  /// unspecialised, where a generic enum costs a metadata lookup per read.
  enum MemberSlot {
    case read((AnyObject, LuaArguments) throws -> Void)
    case method(LuaFunction)
  }

  /// The members of a type in slots, properties first (they shadow methods of the same
  /// name), with their names in slot order.
  func memberSlots<Object: AnyObject>(
    readers: [String: (Object, LuaArguments) throws -> Void], methods: [String: LuaFunction]
  ) -> (names: [String], slots: [MemberSlot]) {
    var names: [String] = []
    var slots: [MemberSlot] = []
    for (name, read) in readers {
      names.append(name)
      // Only `__index` calls it, after `receiver(as:)` has checked the object's type.
      slots.append(
        .read { object, arguments in try read(unsafeDowncast(object, to: Object.self), arguments) })
    }
    for (name, method) in methods where readers[name] == nil {
      names.append(name)
      slots.append(.method(method))
    }
    return (names, slots)
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
