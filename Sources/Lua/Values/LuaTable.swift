import CLua
import CLuaShim

/// A reference to a Lua table.
///
/// `get(_:)` and `set(_:_:)` honour metamethods and run them protected; the `raw`
/// variants do not. Every method throws a ``LuaError`` instead of raising.
public struct LuaTable {
  let reference: LuaReference

  init(_ reference: LuaReference) { self.reference = reference }

  /// Reads `self[key]`, running `__index` if needed.
  /// - Throws: ``LuaError`` raised by a metamethod, or `usage` on a closed state.
  public func get(_ key: LuaValue) throws -> LuaValue {
    let stack = try reference.pushed()
    defer { stack.pop() }
    try stack.push(key)
    try stack.protected { lh_pgettable(stack.L, -2) }
    defer { stack.pop() }
    return stack.value(at: -1)
  }

  /// Writes `self[key] = value`, running `__newindex` if needed.
  /// - Throws: ``LuaError`` raised by a metamethod or for a `nil`/NaN key.
  public func set(_ key: LuaValue, _ value: LuaValue) throws {
    let stack = try reference.pushed()
    defer { stack.pop() }
    try stack.push(key)
    try stack.push(value)
    try stack.protected { lh_psettable(stack.L, -3) }
  }

  /// Reads `self[key]` without metamethods.
  /// - Throws: `usage` on a closed state or a value of another state.
  public func rawGet(_ key: LuaValue) throws -> LuaValue {
    let stack = try reference.pushed()
    defer { stack.pop() }
    try stack.push(key)
    lua_rawget(stack.L, -2)
    defer { stack.pop() }
    return stack.value(at: -1)
  }

  /// Reads `self[key]` without metamethods, a string longer than `maxStringBytes` cut in
  /// place to its first `maxStringBytes + 1` bytes (so it shows as longer than the bound),
  /// and on to the end of the UTF-8 character the cut falls in (so the piece of valid UTF-8
  /// is valid UTF-8): for text the host keeps only a piece of, such as a label, where
  /// copying a script's 50 MB string whole only to cut it would cost the host what the
  /// script's limit forbids it. Other values are read as ``rawGet(_:)`` reads them.
  /// - Throws: `usage` on a closed state or a key of another state.
  public func rawGet(_ key: LuaValue, cuttingStringsAfter maxStringBytes: Int) throws -> LuaValue {
    let stack = try reference.pushed()
    defer { stack.pop() }
    try stack.push(key)
    defer { stack.pop() }
    guard lua_rawget(stack.L, -2) == LUA_TSTRING else { return stack.value(at: -1) }
    var length = 0
    let bytes = UnsafeRawBufferPointer(start: lua_tolstring(stack.L, -1, &length)!, count: length)
    var kept = length
    if maxStringBytes < length {
      kept = max(maxStringBytes, 0) + 1
      // Continuation bytes (10xxxxxx) after the cut: at most three end a character.
      let end = min(length, kept + 3)
      while kept < end, bytes[kept] & 0xC0 == 0x80 { kept += 1 }
    }
    return .string(LuaString(bytes: bytes[..<kept]))
  }

  /// Writes `self[key] = value` without metamethods.
  /// - Throws: `usage` for a `nil` or NaN key, a closed state or a value of another state.
  public func rawSet(_ key: LuaValue, _ value: LuaValue) throws {
    switch key {
    case .nil: throw LuaError(usage: "table index is nil")
    case .number(let d) where d.isNaN: throw LuaError(usage: "table index is NaN")
    default: break
    }
    let stack = try reference.pushed()
    defer { stack.pop() }
    try stack.push(key)
    try stack.push(value)
    lua_rawset(stack.L, -3)
  }

  /// Reads `self[key]`, running `__index` if needed.
  public subscript(key: LuaValue) -> LuaValue {
    get throws { try get(key) }
  }

  /// The length operator `#`, running `__len` if needed.
  /// - Throws: ``LuaError`` raised by `__len`, or `conversion` if it returns a non-integer.
  public func length() throws -> Int64 {
    let stack = try reference.pushed()
    defer { stack.pop() }
    try stack.protected { lh_plen(stack.L, -1) }
    defer { stack.pop() }
    guard case .integer(let n) = stack.value(at: -1) else {
      throw LuaError(conversion: "__len returned a \(stack.value(at: -1).typeName), not an integer")
    }
    return n
  }

  /// The raw length (border) of the sequence part.
  public func rawLength() throws -> Int {
    let stack = try reference.pushed()
    defer { stack.pop() }
    return Int(lua_rawlen(stack.L, -1))
  }

  /// Every key/value pair, without metamethods (the order is Lua's `next` order).
  public func pairs() throws -> [(key: LuaValue, value: LuaValue)] {
    let stack = try reference.pushed()
    defer { stack.pop() }
    var result: [(key: LuaValue, value: LuaValue)] = []
    lua_pushnil(stack.L)
    while lua_next(stack.L, -2) != 0 {
      result.append((stack.value(at: -2), stack.value(at: -1)))
      stack.pop()
    }
    return result
  }

  /// The values at 1…n (raw length), without metamethods.
  public func array() throws -> [LuaValue] {
    let stack = try reference.pushed()
    defer { stack.pop() }
    let count = lua_rawlen(stack.L, -1)
    var result: [LuaValue] = []
    result.reserveCapacity(Int(count))
    var index: lua_Integer = 1
    while index <= lua_Integer(count) {
      lua_rawgeti(stack.L, -1, index)
      result.append(stack.value(at: -1))
      stack.pop()
      index += 1
    }
    return result
  }

  /// The table's metatable, bypassing `__metatable`.
  public func metatable() throws -> LuaTable? {
    let stack = try reference.pushed()
    defer { stack.pop() }
    guard lua_getmetatable(stack.L, -1) != 0 else { return nil }
    defer { stack.pop() }
    return LuaTable(stack.reference(at: -1))
  }

  /// Sets or removes the table's metatable (raw, ignoring `__metatable`).
  public func setMetatable(_ metatable: LuaTable?) throws {
    let stack = try reference.pushed()
    defer { stack.pop() }
    if let metatable { try stack.push(metatable.reference) } else { lua_pushnil(stack.L) }
    lua_setmetatable(stack.L, -2)
  }
}

extension LuaTable {
  /// Reads a string-keyed field, running `__index` if needed.
  public func get(_ key: String) throws -> LuaValue { try get(.string(LuaString(key))) }
  /// Writes a string-keyed field, running `__newindex` if needed.
  public func set(_ key: String, _ value: LuaValue) throws {
    try set(.string(LuaString(key)), value)
  }
}
