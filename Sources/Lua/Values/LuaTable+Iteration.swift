import CLua

/// In-place iteration used by the collection conversions: no intermediate arrays.
extension LuaTable {
  /// Calls `body` with each value at 1…n (raw length), without metamethods. `body` may use
  /// the state (it runs above the table on the stack) but must not change this table.
  func forEachArrayValue(_ body: (LuaValue) throws -> Void) throws {
    let stack = try reference.pushed()
    let table = stack.top
    defer { lua_settop(stack.L, table - 1) }
    let count = lua_Integer(lua_rawlen(stack.L, table))
    var index: lua_Integer = 1
    while index <= count {
      lua_rawgeti(stack.L, table, index)
      try body(stack.value(at: -1))
      lua_settop(stack.L, table)
      index += 1
    }
  }

  /// Calls `body` with every key/value pair in `next` order, without metamethods. `body`
  /// must not change this table.
  func forEachPair(_ body: (LuaValue, LuaValue) throws -> Void) throws {
    let stack = try reference.pushed()
    let table = stack.top
    defer { lua_settop(stack.L, table - 1) }
    lua_pushnil(stack.L)
    while lua_next(stack.L, table) != 0 {
      try body(stack.value(at: -2), stack.value(at: -1))
      lua_settop(stack.L, table + 1)  // keep the key for the next lua_next
    }
  }
}

extension LuaState {
  /// Builds a new table in place: `fill` pushes each value with the stack passed to it.
  /// [-0, +0] Returns the table.
  func buildTable(
    arrayCapacity: Int, fieldCapacity: Int, _ fill: (LuaStack, Int32) throws -> Void
  ) throws -> LuaTable {
    let stack = try LuaStack(core)
    try stack.reserve(4)
    let table = stack.top + 1
    defer { lua_settop(stack.L, table - 1) }
    lua_createtable(stack.L, Int32(clamping: arrayCapacity), Int32(clamping: fieldCapacity))
    try fill(stack, table)
    return LuaTable(stack.reference(at: table))
  }
}

extension LuaTable {
  /// Up to `limit` key/value pairs in `next` order, read raw (no metamethods run), with
  /// string keys and values cut to at most `maxStringLength + 1` bytes, for displays that
  /// must stay bounded however big the table is. `isComplete` is false when pairs were left.
  /// - Throws: ``LuaError`` if the state is closed.
  public func rawPairs(limit: Int, maxStringLength: Int) throws -> (
    pairs: [(key: LuaValue, value: LuaValue)], isComplete: Bool
  ) {
    let stack = try reference.pushed()
    let table = stack.top
    defer { lua_settop(stack.L, table - 1) }
    try stack.reserve(3)
    func value(at index: Int32) -> LuaValue {
      guard lua_type(stack.L, index) == LUA_TSTRING else { return stack.value(at: index) }
      var length = 0
      let bytes = lua_tolstring(stack.L, index, &length)!
      let kept = min(length, maxStringLength + 1)
      return .string(
        LuaString(
          bytes: UnsafeRawBufferPointer(start: bytes, count: kept).bindMemory(to: UInt8.self)))
    }
    var pairs: [(key: LuaValue, value: LuaValue)] = []
    lua_pushnil(stack.L)
    while lua_next(stack.L, table) != 0 {
      guard pairs.count < limit else { return (pairs, false) }
      pairs.append((value(at: -2), value(at: -1)))
      lua_settop(stack.L, table + 1)
    }
    return (pairs, true)
  }
}
