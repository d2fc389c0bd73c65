import CLua

/// Collections convert to and from tables.
///
/// Cycles: converting a table to `[LuaValue]` or `[LuaValue: LuaValue]` reads one level
/// and never recurses. Converting to nested Swift collections recurses, and a table that
/// contains itself (directly or through other tables) throws a `conversion` error
/// ("table contains a cycle") instead of hanging.
@usableFromInline enum TableVisits {
  @usableFromInline @TaskLocal static var active: Set<UInt> = []

  @usableFromInline static func visiting<R>(_ table: LuaTable, _ body: () throws -> R) throws -> R {
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
  @inlinable  // specialised for the element type: generic code looked up metadata per element
  public init(luaValue: LuaValue) throws {
    if Element.self == UInt8.self, case .string(let s) = luaValue {
      self = s.bytes as! [Element]
      return
    }
    let table = try LuaTable(luaValue: luaValue)
    // Numbers in one pass (the type checks fold away once specialised); nil when an
    // element is something else, which the general loop below converts or reports.
    if Element.self == Int.self, let values = try table.intSequence() {
      self = values as! [Element]
      return
    }
    if Element.self == Int64.self, let values = try table.integerSequence() {
      self = values as! [Element]
      return
    }
    if Element.self == Double.self, let values = try table.numberSequence() {
      self = values as! [Element]
      return
    }
    self = try TableVisits.visiting(table) {
      var result: [Element] = []
      // In place: a scalar element is read straight off the stack (no `LuaValue`).
      try table.forEachArrayValueInPlace { result.append(try Element._readValue($0, at: 1)) }
      return result
    }
  }

  /// A new sequence table; `[UInt8]` becomes a Lua string, byte for byte.
  @inlinable  // specialised: scalar elements are pushed straight onto the stack
  public func luaValue(in state: LuaState) throws -> LuaValue {
    if Element.self == UInt8.self, let bytes = self as? [UInt8] {
      return .string(LuaString(bytes: bytes))
    }
    let table = try state.buildTable(arrayCapacity: count, fieldCapacity: 0) { stack, table in
      var index: lua_Integer = 1
      for element in self {
        try element._push(stack)
        stack.rawSet(table: table, index: index)
        index += 1
      }
    }
    return .table(table)
  }
}

extension Dictionary: LuaConvertible where Key: LuaConvertible, Value: LuaConvertible {
  /// Converts every pair of a table.
  @inlinable  // specialised for the key and value types, as the array conversion is
  public init(luaValue: LuaValue) throws {
    let table = try LuaTable(luaValue: luaValue)
    self = try TableVisits.visiting(table) {
      var result: [Key: Value] = [:]
      result.reserveCapacity(try table.rawPairCount())
      // In place: scalar keys and values are read straight off the stack.
      try table.forEachPairInPlace { pair in
        result[try Key._readValue(pair, at: 1)] = try Value._readValue(pair, at: 2)
      }
      return result
    }
  }

  /// A new table with every pair.
  /// - Throws: `usage` for a key that converts to `nil` or NaN.
  @inlinable  // specialised: scalar keys and values are pushed straight onto the stack
  public func luaValue(in state: LuaState) throws -> LuaValue {
    let table = try state.buildTable(arrayCapacity: 0, fieldCapacity: count) { stack, table in
      for (key, value) in self {
        try key._push(stack)
        try stack.checkTableKey()
        try value._push(stack)
        stack.rawSet(table: table)
      }
    }
    return .table(table)
  }
}
