import CLua
import CLuaShim

extension LuaState {
  /// A field of a value read without running any Lua code: a raw read for tables, the
  /// registered property getter for Swift objects; nil otherwise.
  public func rawField(of value: LuaValue, _ name: String) -> LuaValue? {
    switch value {
    case .table(let table): return try? table.rawGet(.string(LuaString(name)))
    case .userdata(let userdata):
      guard let object = userdata.object(as: AnyObject.self),
        let getter = core.objectGetters[ObjectIdentifier(type(of: object))]?[name]
      else { return nil }
      return try? getter(object, self)
    default: return nil
    }
  }

  /// The string keys a value offers, for completion: a table's own keys, then those of
  /// `__index` tables up its metatable chain; a Swift object's registered methods and
  /// properties; the string library for strings. Reads are raw: no script code runs.
  public func fieldNames(of value: LuaValue) -> [String] {
    guard let stack = try? LuaStack(core), (try? stack.reserve(6)) != nil,
      (try? stack.push(value)) != nil
    else { return [] }
    defer { stack.pop() }
    var names = Set<String>()
    if let object = stack.object(at: -1) {
      names.formUnion(core.objectMemberNames[ObjectIdentifier(type(of: object))] ?? [])
      return names.sorted()
    }
    // Walk value, then __index of its metatable while that is a table (at most 16 steps:
    // a metatable chain can be cyclic).
    lua_pushvalue(stack.L, -1)
    for _ in 0..<16 {
      if lua_type(stack.L, -1) == LUA_TTABLE {
        lua_pushnil(stack.L)
        while lua_next(stack.L, -2) != 0 {
          if lua_type(stack.L, -2) == LUA_TSTRING, let name = stack.string(at: -2).string {
            names.insert(name)
          }
          stack.pop()
        }
      }
      guard lua_getmetatable(stack.L, -1) != 0 else { break }
      stack.push("__index")
      lua_rawget(stack.L, -2)
      lua_rotate(stack.L, -3, 1)  // current mt index -> index current mt
      stack.pop(2)
      if lua_type(stack.L, -1) != LUA_TTABLE { break }
    }
    stack.pop()
    return names.sorted()
  }
}
