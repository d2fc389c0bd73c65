import CLua

// Whole sequences of numbers read in one pass, for `[Int]`, `[Int64]` and `[Double]`: no
// closure, no `LuaArguments` and no second type check per element. `lua_rawgeti` returns the
// type it pushed, so each element costs three liblua calls, as a C loop over the same table
// does. A sequence with any other element returns nil, and the caller converts it element by
// element, which reports the element that does not convert.

extension LuaTable {
  /// The raw sequence 1…#t as integers (a float with an exact integer value converts, as
  /// `Int64._read` converts it), or nil if any element is another value.
  @usableFromInline
  func integerSequence() throws -> [Int64]? { try readSequence(Self.integerOnTop) }

  /// ``integerSequence()`` as `[Int]` (Int is 64 bits wide wherever LuaHost builds).
  @usableFromInline
  func intSequence() throws -> [Int]? { try readSequence { Self.integerOnTop($0).map(Int.init) } }

  /// The raw sequence 1…#t as floats (an integer converts), or nil if any element is
  /// another value.
  @usableFromInline
  func numberSequence() throws -> [Double]? { try readSequence { lua_tonumberx($0, -1, nil) } }

  /// The number on top of the stack as an integer, or nil for a float without one.
  @inline(__always)
  private static func integerOnTop(_ L: OpaquePointer) -> Int64? {
    var isInteger: Int32 = 0
    let integer = lua_tointegerx(L, -1, &isInteger)
    return isInteger != 0 ? integer : nil
  }

  /// Reads 1…#t raw; `read` converts the number on top of the stack, or returns nil.
  /// Only numbers reach `read`: a string that looks like one is left to the caller's
  /// element-by-element conversion.
  @inline(__always)
  private func readSequence<Element>(_ read: (OpaquePointer) -> Element?) throws -> [Element]? {
    let stack = try reference.pushed()
    let L = stack.L
    let table = stack.top
    defer { lua_settop(L, table - 1) }
    let count = Int(lua_rawlen(L, table))
    var result: [Element] = []
    // A border of a table with a hash part can lie far past its element count (Lua finds
    // it by doubling), so the first allocation is bounded; appends grow it past that.
    result.reserveCapacity(Swift.min(count, 1 << 16))
    var index = 1
    while index <= count {
      let type = lua_rawgeti(L, table, lua_Integer(index))
      let value = type == LUA_TNUMBER ? read(L) : nil
      lua_settop(L, table)
      guard let value else { return nil }
      result.append(value)
      index += 1
    }
    return result
  }
}
