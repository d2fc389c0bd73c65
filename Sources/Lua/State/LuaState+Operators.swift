import CLua
import CLuaShim

extension LuaState {
  /// A comparison Lua can make, running `__eq`, `__lt` or `__le` if needed.
  public enum Comparison: Sendable {
    /// `a == b`
    case equal
    /// `a < b`
    case lessThan
    /// `a <= b`
    case lessThanOrEqual

    var code: Int32 {
      switch self {
      case .equal: LUA_OPEQ
      case .lessThan: LUA_OPLT
      case .lessThanOrEqual: LUA_OPLE
      }
    }
  }

  /// Compares two values as Lua would, running metamethods protected.
  /// - Throws: ``LuaError`` raised by a metamethod or for incomparable values.
  public func compare(_ a: LuaValue, _ b: LuaValue, _ comparison: Comparison) throws -> Bool {
    let stack = try LuaStack(core)
    try stack.reserve(2)
    try stack.push(a)
    defer { stack.pop(2) }
    try stack.push(b)
    var result: Int32 = 0
    try stack.protected { lh_pcompare(stack.L, -2, -1, comparison.code, &result) }
    return result != 0
  }

  /// `tostring(value)`: runs `__tostring` and `__name` protected.
  /// - Throws: ``LuaError`` raised by `__tostring`, or when it returns a non-string.
  public func string(describing value: LuaValue) throws -> String {
    let stack = try LuaStack(core)
    try stack.reserve(2)
    try stack.push(value)
    defer { stack.pop() }
    try stack.protected { lh_ptostring(stack.L, -1) }
    defer { stack.pop() }
    return stack.string(at: -1).description
  }

  /// `#value`: runs `__len` protected.
  /// - Throws: ``LuaError`` raised by `__len` or for a value without a length.
  public func length(of value: LuaValue) throws -> LuaValue {
    let stack = try LuaStack(core)
    try stack.reserve(2)
    try stack.push(value)
    defer { stack.pop() }
    try stack.protected { lh_plen(stack.L, -1) }
    defer { stack.pop() }
    return stack.value(at: -1)
  }

  /// `a .. b .. …`: runs `__concat` protected.
  /// - Throws: ``LuaError`` raised by `__concat` or for values that cannot be joined.
  public func concatenate(_ values: [LuaValue]) throws -> LuaValue {
    let stack = try LuaStack(core)
    try stack.reserve(values.count + 2)
    let base = stack.top
    do {
      for value in values { try stack.push(value) }
    } catch {
      lua_settop(stack.L, base)
      throw error
    }
    try stack.protected { lh_pconcat(stack.L, Int32(values.count)) }
    defer { stack.pop() }
    return stack.value(at: -1)
  }
}
