/// A `Codable` type that converts to and from Lua through ``LuaEncoder`` and
/// ``LuaDecoder``, so it can be used wherever a ``LuaConvertible`` can: as a typed
/// argument or result of a registered function, or with ``LuaState/value(_:)``.
///
/// Declaring the conformance is enough; the default strategies are used.
///
/// ```swift
/// struct Note: LuaCodable { var title: String; var tags: [String] }
/// try lua.register("shout") { (note: Note) in Note(title: note.title.uppercased(), tags: note.tags) }
/// try lua.run("return shout({title = 'milk', tags = {}}).title")   // "MILK"
/// ```
/// A bad argument raises a Lua error that names its position and the coding path:
/// `bad argument #1 (tags[1]: string expected, got number)`.
public protocol LuaCodable: Codable, LuaConvertible {}

extension LuaCodable {
  /// Decodes the value with the default ``LuaDecoder``.
  /// - Throws: ``LuaError`` of kind `conversion` whose message names the coding path.
  public init(luaValue: LuaValue) throws {
    self = try LuaDecoder().decode(Self.self, from: luaValue)
  }

  /// Encodes the value with the default ``LuaEncoder``; tables are created in `state`.
  /// - Throws: ``LuaError`` of kind `conversion`, `memory` or `usage`, as
  ///   ``LuaEncoder/encode(_:in:)`` does.
  public func luaValue(in state: LuaState) throws -> LuaValue {
    try LuaEncoder().encode(self, in: state)
  }
}
