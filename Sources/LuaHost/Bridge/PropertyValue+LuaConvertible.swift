import Lua
import ViewTree

/// The view tree's own value converts to and from Lua like any Swift value: a component's
/// property or method may take and return `PropertyValue` (or `PropertyValue?`, for a
/// property that may be unset), and the values of `View.send(_:_:)` reach Lua's handlers
/// the same way. Lua sees a string, an integer, a float or a boolean.
extension PropertyValue: LuaConvertible {
  /// Converts a Lua string (valid UTF-8), integer, float or boolean, keeping Lua's
  /// integer and float apart.
  /// - Throws: `LuaError` of kind `conversion` for any other value (`nil`, a table…), a
  ///   string that is not UTF-8, or an integer that does not fit `Int`.
  public init(luaValue: LuaValue) throws {
    switch luaValue {
    case .string: self = .string(try String(luaValue: luaValue))
    case .integer: self = .integer(try Int(luaValue: luaValue))
    case .number(let number): self = .number(number)
    case .boolean(let flag): self = .bool(flag)
    default:
      throw LuaError(
        kind: .conversion,
        message: "string, number or boolean expected, got \(luaValue.typeName)")
    }
  }

  /// The Lua string, integer, float or boolean.
  public func luaValue(in state: LuaState) -> LuaValue { luaValue }

  /// The Lua value, which needs no state (no `PropertyValue` is a table).
  var luaValue: LuaValue {
    switch self {
    case .string(let text): .string(LuaString(text))
    case .integer(let number): .integer(Int64(number))
    case .number(let number): .number(number)
    case .bool(let flag): .boolean(flag)
    }
  }
}
