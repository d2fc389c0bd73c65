/// Concrete conversions for the scalar types used most often (`Int64`, `Int`, `Double`).
///
/// They behave exactly like the generic `FixedWidthInteger` ones in LuaConvertible.swift,
/// but the generic versions are not specialised across modules and cost a metadata lookup
/// per call (about 600 instructions under callgrind); these cost a few.
extension Int64 {
  /// Converts a Lua integer, or a float with an exact integer value.
  public init(luaValue: LuaValue) throws {
    switch luaValue {
    case .integer(let i): self = i
    case .number(let d):
      guard let exact = Int64(exactly: d) else {
        throw LuaError(conversion: "number has no integer representation")
      }
      self = exact
    default: throw LuaError.integerMismatch(luaValue)
    }
  }

  /// An integer.
  public func luaValue(in state: LuaState) -> LuaValue { .integer(self) }
}

extension Int {
  /// Converts a Lua integer, or a float with an exact integer value.
  public init(luaValue: LuaValue) throws {
    let wide = try Int64(luaValue: luaValue)
    guard let value = Int(exactly: wide) else {
      throw LuaError(conversion: "integer \(wide) does not fit Int")
    }
    self = value
  }

  /// An integer.
  public func luaValue(in state: LuaState) -> LuaValue { .integer(Int64(self)) }
}

extension Double {
  /// Converts a Lua number (integer or float).
  public init(luaValue: LuaValue) throws {
    switch luaValue {
    case .number(let d): self = d
    case .integer(let i): self = Double(i)
    default: throw LuaError.numberMismatch(luaValue)
    }
  }

  /// A float.
  public func luaValue(in state: LuaState) -> LuaValue { .number(self) }
}

extension LuaError {
  static func integerMismatch(_ value: LuaValue) -> LuaError {
    mismatch(value, expected: "integer")
  }
  static func numberMismatch(_ value: LuaValue) -> LuaError { mismatch(value, expected: "number") }
}
