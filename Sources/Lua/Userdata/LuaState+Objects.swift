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
    // The member table, interned in Lua: a method's name maps to its function, a
    // property's to its slot. `__index` is a C closure over it (lh_pushindexfunction): it
    // returns a method itself, without entering Swift, and hands a property's slot to the
    // Swift part below, so no read makes or hashes a Swift `String`. A property shadows a
    // method of the same name, as before.
    let properties = propertyReaders(readers)
    // Room for the table, a key and a value, then for `pushIndex` (3) above the table.
    try stack.reserve(5)
    lua_createtable(stack.L, 0, Int32(properties.count + methods.count))
    for (slot, property) in properties.enumerated() {
      stack.push(property.name)
      lua_pushinteger(stack.L, lua_Integer(slot))
      lua_rawset(stack.L, -3)
    }
    for (member, method) in methods where readers[member] == nil {
      stack.push(member)
      try stack.push(method.reference)
      lua_rawset(stack.L, -3)
    }
    let reads = properties.map(\.read)
    // `self`, the key and the value are read in place: a property read or write builds no
    // arrays, and makes no reference to the userdata.
    stack.pushIndex(
      LuaCallback(core: core) { stack in
        // lh_index_trampoline passes exactly (self, key, the key's slot or nil).
        let arguments = LuaArguments(stack: stack, count: 3)
        return try arguments.withReceiver(as: Object.self, typeName: name) { object in
          if lua_isinteger(stack.L, 3) != 0 {
            // Checked: trusted code can reach the table (debug.getupvalue) and change a slot.
            let slot = Int(lua_tointegerx(stack.L, 3, nil))
            if reads.indices.contains(slot) {
              // Room: Lua gives a C function LUA_MINSTACK free slots, and a read pushes one.
              try reads[slot](object, arguments)
              return 1
            }
          }
          try arguments.push(try fallbackGet?(object, arguments[2]) ?? .nil)
          return 1
        }
      })
    stack.setField("__index")
    try stack.push(
      LuaCallback(core: core) { stack in
        let arguments = LuaArguments(uncounted: stack)
        return try arguments.withReceiver(as: Object.self, typeName: name) { object in
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
        }
      })
    stack.setField("__newindex")
    if description.metamethods[.tostring] == nil {
      try stack.push(
        LuaCallback(core: core) { stack in
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

  /// A property reader of an object that `__index` has checked is of the type. Not
  /// generic: `__index` runs unspecialised, where a generic closure type costs a metadata
  /// lookup per read.
  typealias PropertyRead = (AnyObject, LuaArguments) throws -> Void

  /// The readers of a type's properties, in slot order, with their names.
  func propertyReaders(_ readers: [String: PropertyRead]) -> [(name: String, read: PropertyRead)] {
    readers.map { name, read in (name, read) }
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
