import Lua
import ViewTree

/// The table a script passes to a component's constructor, `ui.slider{ min = 0, max = 10 }`,
/// with typed reads. A constructor called with a string (`ui.slider("volume")`) gets a
/// spec whose `id` is that string.
public struct ComponentSpec {
  let table: LuaTable?
  let idArgument: String?

  init(_ value: LuaValue, constructor: String) throws {
    switch value {
    case .nil: (table, idArgument) = (nil, nil)
    case .table(let t): (table, idArgument) = (t, nil)
    case .string(let s): (table, idArgument) = (nil, s.description)
    default:
      throw LuaError(
        kind: .runtime,
        message: "bad argument #1 to 'ui.\(constructor)' (table expected, got \(value.typeName))")
    }
  }

  /// The field `key` as Lua has it (`nil` when missing). Reads are raw: a spec's
  /// metatable does not run.
  public subscript(key: String) -> LuaValue {
    get throws { try table?.rawGet(.string(LuaString(key))) ?? .nil }
  }

  /// The field `key` converted to `T`, or nil when it is missing.
  /// - Throws: `LuaError` (`runtime`) naming the field when it does not convert.
  public func get<T: LuaConvertible>(_ key: String, as type: T.Type) throws -> T? {
    try convert(self[key], field: key, to: T.self)
  }

  /// The field `key` as a button's label, on one line and clipped
  /// (`AlertAction.clip(_:)`), or nil when it is missing. Only its first
  /// ``ScriptedTree/labelBytesRead`` bytes are read: a label keeps a few dozen characters,
  /// and a script's 50 MB string is not copied whole only to be cut.
  /// - Throws: `LuaError` (`runtime`) naming the field when it is not a string.
  func label(_ key: String) throws -> String? {
    let value =
      try table?.rawGet(.string(LuaString(key)), cuttingStringsAfter: ScriptedTree.labelBytesRead)
      ?? .nil
    guard let text = try convert(value, field: key, to: String.self) else { return nil }
    return AlertAction.clip(text)
  }

  /// `value` of field `key` converted to `T`, or nil for nil.
  private func convert<T: LuaConvertible>(_ value: LuaValue, field key: String, to: T.Type) throws
    -> T?
  {
    if value.isNil { return nil }
    do {
      return try T(luaValue: value)
    } catch let error as LuaError {
      throw LuaError(kind: .runtime, message: "field '\(key)': \(error.message)")
    }
  }

  /// The view's `id`: the string argument, or the table's `id` field.
  /// - Throws: `LuaError` for an id with a `/` (it would make view paths ambiguous).
  public var id: String? {
    get throws {
      guard let id = try idArgument ?? get("id", as: String.self) else { return nil }
      try ScriptedTree.checkID(id)
      return id
    }
  }
}
