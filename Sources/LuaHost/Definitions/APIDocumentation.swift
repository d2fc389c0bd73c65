/// What an app says about a component or a module for editors: a summary, and a
/// ``LuaDoc`` per field (and, for a component, per field of its constructor's table). Set
/// through `describe`; read by ``LuaDefinitions``.
struct APIDocumentation: Sendable {
  /// One line about the whole component or module.
  var summary: String?
  /// The documented fields, by name (a module's nested fields by dotted path).
  var fields: [String: LuaDoc] = [:]
  /// The documented fields of a component's constructor table.
  var options: [String: LuaDoc] = [:]
}
