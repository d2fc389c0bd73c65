import CLua

/// In-place iteration used by the collection conversions: no intermediate arrays.
extension LuaTable {
  /// Calls `body` with each value at 1…n (raw length), without metamethods, as position 1
  /// of `LuaArguments` read in place. `body` must not change this table.
  @usableFromInline
  func forEachArrayValueInPlace(_ body: (LuaArguments) throws -> Void) throws {
    let stack = try reference.pushed()
    let table = stack.top
    defer { lua_settop(stack.L, table - 1) }
    let count = lua_Integer(lua_rawlen(stack.L, table))
    let value = LuaArguments(stack: stack, base: table, count: 1)
    var index: lua_Integer = 1
    while index <= count {
      lua_rawgeti(stack.L, table, index)
      try body(value)
      lua_settop(stack.L, table)
      index += 1
    }
  }

  /// Calls `body` with every key/value pair in `next` order, without metamethods. `body`
  /// must not change this table.
  func forEachPair(_ body: (LuaValue, LuaValue) throws -> Void) throws {
    try forEachPairInPlace { pair in try body(pair[1], pair[2]) }
  }

  /// The number of pairs `next` visits: a pass without conversions, so that a dictionary
  /// is allocated once (growing one rehashes every key it holds, about three times the
  /// cost of this pass for string keys).
  @usableFromInline
  func rawPairCount() throws -> Int {
    let stack = try reference.pushed()
    let table = stack.top
    defer { lua_settop(stack.L, table - 1) }
    var count = 0
    lua_pushnil(stack.L)
    while lua_next(stack.L, table) != 0 {
      count += 1
      lua_settop(stack.L, table + 1)
    }
    return count
  }

  /// Calls `body` with every pair in `next` order, without metamethods, as positions 1
  /// (the key) and 2 (the value) of `LuaArguments` read in place. `body` must not change
  /// this table, nor convert the key in place (the reads here never do).
  @usableFromInline
  func forEachPairInPlace(_ body: (LuaArguments) throws -> Void) throws {
    let stack = try reference.pushed()
    let table = stack.top
    defer { lua_settop(stack.L, table - 1) }
    let pair = LuaArguments(stack: stack, base: table, count: 2)
    lua_pushnil(stack.L)
    while lua_next(stack.L, table) != 0 {
      try body(pair)
      lua_settop(stack.L, table + 1)  // keep the key for the next lua_next
    }
  }
}

extension LuaState {
  /// Builds a new table in place: `fill` pushes each value through the `LuaArguments`
  /// passed to it (a vehicle for pushes, with room for four), and stores it with
  /// `rawSet`. [-0, +0] Returns the table.
  @usableFromInline
  func buildTable(
    arrayCapacity: Int, fieldCapacity: Int, _ fill: (LuaArguments, Int32) throws -> Void
  ) throws -> LuaTable {
    let stack = try LuaStack(core)
    try stack.reserve(4)
    let table = stack.top + 1
    defer { lua_settop(stack.L, table - 1) }
    lua_createtable(stack.L, Int32(clamping: arrayCapacity), Int32(clamping: fieldCapacity))
    try fill(LuaArguments(stack: stack, base: table, count: 0), table)
    return LuaTable(stack.reference(at: table))
  }
}

extension LuaArguments {
  /// Pops a value into `table[index]`, raw. Not API. [-1, +0]
  @usableFromInline
  func rawSet(table: Int32, index: lua_Integer) { lua_rawseti(stack.L, table, index) }

  /// Pops a key and a value into `table`, raw. Not API. [-2, +0]
  @usableFromInline
  func rawSet(table: Int32) { lua_rawset(stack.L, table) }

  /// Refuses the key on top of the stack if Lua would: `nil` or NaN. Not API.
  /// - Throws: `usage` "table index is nil" or "table index is NaN".
  @usableFromInline
  func checkTableKey() throws {
    switch lua_type(stack.L, -1) {
    case LUA_TNIL: throw LuaError(usage: "table index is nil")
    case LUA_TNUMBER where lua_isinteger(stack.L, -1) == 0:
      let number = lua_tonumberx(stack.L, -1, nil)
      if number.isNaN { throw LuaError(usage: "table index is NaN") }
    default: break
    }
  }
}

extension LuaTable {
  /// Calls `body` with each key/value pair in `next` order, read raw (no metamethods run)
  /// and in place, as positions 1 (the key) and 2 (the value) of a ``LuaArguments``: no
  /// array of pairs is built, and nothing is copied until `body` reads it, so a copy can
  /// check a string's size (``LuaArguments/stringByteCount(at:)``) and stop before it
  /// copies more than it allows. `body` must not change this table; to stop early, throw.
  ///
  /// ```swift
  /// var bytes = 0
  /// try table.forEachRawPair { pair in
  ///   bytes += (pair.stringByteCount(at: 1) ?? 0) + (pair.stringByteCount(at: 2) ?? 0)
  ///   guard bytes <= 1 << 20 else { throw TooBig() }
  /// }
  /// ```
  /// - Throws: ``LuaError`` if the state is closed, and what `body` throws.
  public func forEachRawPair(_ body: (LuaArguments) throws -> Void) throws {
    try forEachPairInPlace(body)
  }

  /// Calls `body` with each value at 1…n (the raw length, read once), without
  /// metamethods, in place as position 1 of a ``LuaArguments``: nothing is copied until
  /// `body` reads it (see ``forEachRawPair(_:)``). `body` must not change this table.
  /// - Throws: ``LuaError`` if the state is closed, and what `body` throws.
  public func forEachRawArrayValue(_ body: (LuaArguments) throws -> Void) throws {
    try forEachArrayValueInPlace(body)
  }

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
