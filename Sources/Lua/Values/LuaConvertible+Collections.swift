import CLua

/// Collections convert to and from tables.
///
/// Cycles: converting a table to `[LuaValue]` or `[LuaValue: LuaValue]` reads one level
/// and never recurses. Converting to nested Swift collections recurses, and a table that
/// contains itself (directly or through other tables) throws a `conversion` error
/// ("table contains a cycle") instead of hanging.
enum TableVisits {
  @TaskLocal static var active: Set<UInt> = []

  static func visiting<R>(_ table: LuaTable, _ body: () throws -> R) throws -> R {
    let id = UInt(bitPattern: table.reference.identity)
    guard !active.contains(id) else { throw LuaError(conversion: "table contains a cycle") }
    var next = active
    next.insert(id)
    return try $active.withValue(next, operation: body)
  }
}

extension Array: LuaConvertible where Element: LuaConvertible {
  /// Converts the sequence 1…#t of a table. `[UInt8]` also converts from a Lua string,
  /// byte for byte.
  public init(luaValue: LuaValue) throws {
    if Element.self == UInt8.self, case .string(let s) = luaValue {
      self = s.bytes as! [Element]
      return
    }
    let table = try LuaTable(luaValue: luaValue)
    self = try TableVisits.visiting(table) {
      var result: [Element] = []
      try table.forEachArrayValue { result.append(try Element(luaValue: $0)) }
      return result
    }
  }

  /// A new sequence table; `[UInt8]` becomes a Lua string, byte for byte.
  public func luaValue(in state: LuaState) throws -> LuaValue {
    if Element.self == UInt8.self, let bytes = self as? [UInt8] {
      return .string(LuaString(bytes: bytes))
    }
    let table = try state.buildTable(arrayCapacity: count, fieldCapacity: 0) { stack, table in
      var index: lua_Integer = 1
      for element in self {
        try stack.push(element.luaValue(in: state))
        lua_rawseti(stack.L, table, index)
        index += 1
      }
    }
    return .table(table)
  }
}

extension Dictionary: LuaConvertible where Key: LuaConvertible, Value: LuaConvertible {
  /// Converts every pair of a table.
  public init(luaValue: LuaValue) throws {
    let table = try LuaTable(luaValue: luaValue)
    self = try TableVisits.visiting(table) {
      var result: [Key: Value] = [:]
      try table.forEachPair { key, value in
        result[try Key(luaValue: key)] = try Value(luaValue: value)
      }
      return result
    }
  }

  /// A new table with every pair.
  /// - Throws: `usage` for a key that converts to `nil` or NaN.
  public func luaValue(in state: LuaState) throws -> LuaValue {
    let table = try state.buildTable(arrayCapacity: 0, fieldCapacity: count) { stack, table in
      for (key, value) in self {
        let key = try key.luaValue(in: state)
        switch key {
        case .nil: throw LuaError(usage: "table index is nil")
        case .number(let d) where d.isNaN: throw LuaError(usage: "table index is NaN")
        default: break
        }
        try stack.push(key)
        try stack.push(value.luaValue(in: state))
        lua_rawset(stack.L, table)
      }
    }
    return .table(table)
  }
}
