import CLua
import CLuaShim

extension LuaStack {
  /// Retains `object` for a Lua userdata and records it in the core's live boxes.
  func retainBox(_ object: AnyObject) -> UnsafeMutableRawPointer {
    let box = Unmanaged.passRetained(object).toOpaque()
    core.liveBoxes[box, default: 0] += 1
    return box
  }

  /// The Swift object held by the userdata at `index`, or nil for any other value
  /// (including userdata that LuaHost did not make, whatever its metatable). [-0, +0]
  func object(at index: Int32) -> AnyObject? {
    guard let box = lh_toobject(L, index) else { return nil }
    return Unmanaged<AnyObject>.fromOpaque(box).takeUnretainedValue()
  }

  /// Pushes `object` as a userdata with its type's metatable, registering a default
  /// metatable for types never registered. [-0, +1]
  ///
  /// The same object always gives the same userdata while Lua holds it (a weak-valued
  /// cache keyed by the object's address; the userdata retains the object, so the address
  /// cannot be reused while the entry exists), so `==` and table keys work on objects.
  /// `cached: false` skips the cache, for objects that are never pushed twice (error boxes).
  func pushObject(_ object: AnyObject, cached: Bool = true) throws {
    try reserve(8)
    if !cached {
      try pushNewObject(object)
      return
    }
    let address = Unmanaged.passUnretained(object).toOpaque()
    pushObjectCache()
    // A cached userdata whose box was released by hand (its `__gc` called through the
    // debug library) holds no object any more: it is replaced, or this object (or a new
    // one at the freed one's address) would get a userdata every access to fails.
    if lua_rawgetp(L, -1, address) == LUA_TUSERDATA, lh_toobject(L, -1) == address {
      lua_rotate(L, -2, 1)  // ... ud cache
      pop()
      return
    }
    pop()
    try pushNewObject(object)  // ... cache ud
    lua_pushvalue(L, -1)
    lua_rawsetp(L, -3, address)
    lua_rotate(L, -2, 1)  // ... ud cache
    pop()
  }

  /// Pushes a new userdata for `object`. [-0, +1]
  private func pushNewObject(_ object: AnyObject) throws {
    let id = ObjectIdentifier(type(of: object))
    let metatable = core.objectMetatables[id] ?? registerDefaultMetatable(for: object)
    lua_rawgeti(L, registryIndex, lua_Integer(metatable))
    lh_pushobject(L, retainBox(object), -1)
    lua_rotate(L, -2, 1)  // ... ud mt
    pop()
  }

  /// Pushes the weak-valued table of object userdata. [-0, +1]
  private func pushObjectCache() {
    if let ref = core.objectCache {
      lua_rawgeti(L, registryIndex, lua_Integer(ref))
      return
    }
    lua_createtable(L, 0, 0)
    lua_createtable(L, 0, 1)
    push("v")
    setField("__mode")
    lua_setmetatable(L, -2)
    lua_pushvalue(L, -1)
    core.objectCache = luaL_ref(L, registryIndex)
  }

  /// Stores the metatable on top as the one for `type`. [-1, +0]
  func setMetatable(forType id: ObjectIdentifier, name: String) {
    lh_markobjectmetatable(L, -1)
    if let old = core.objectMetatables[id] { luaL_unref(L, registryIndex, old) }
    core.objectMetatables[id] = luaL_ref(L, registryIndex)
    core.objectTypeNames[id] = name
  }

  /// Sets field `name` of the table on top to the value on top. [-1, +0]
  func setField(_ name: String) { lua_setfield(L, -2, name) }

  private func registerDefaultMetatable(for object: AnyObject) -> Int32 {
    let id = ObjectIdentifier(type(of: object))
    let name = object is SwiftErrorBox ? "SwiftError" : String(describing: type(of: object))
    lua_createtable(L, 0, 4)
    push(name)
    setField("__name")
    push(name)
    setField("__metatable")
    let tostring = LuaCallback(core: core) { stack in
      let held = stack.object(at: 1)
      if let box = held as? SwiftErrorBox {
        stack.push(String(describing: box.error))
      } else {
        stack.push("\(name): \(lua_topointer(stack.L, 1).map { "\($0)" } ?? "?")")
      }
      return 1
    }
    lh_pushswiftfunction(L, retainBox(tostring))
    setField("__tostring")
    setMetatable(forType: id, name: name)
    return core.objectMetatables[id]!
  }
}
