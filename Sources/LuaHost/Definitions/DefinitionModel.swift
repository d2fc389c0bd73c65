/// Which generated file a global or a class goes to.
enum DefinitionFile: Hashable, Sendable {
  /// `.luahost/luahost-api.lua`: what every plugin sees (`ui`, `timer`, the view classes).
  case api
  /// `.luahost/luahost-testing.lua`: what `luahost test` adds (`test`, `expect`, …).
  case testing
  /// `.luahost/<name>.lua`: a host module, for `require`.
  case module(String)
}

/// A field of a class, as the live API has it.
struct DefinitionField: Equatable, Sendable {
  /// How Lua code uses the field.
  enum Kind: Equatable, Sendable {
    /// A value read as `object.name` (a function stored there, too, when not documented
    /// as one).
    case value
    /// A function called as `object.name(…)`.
    case function
    /// A method called as `object:name(…)`.
    case method
  }

  var name: String
  var kind: Kind
  var doc: LuaDoc
  /// Whether a script may assign it (`view.title = …`).
  var isSettable = false
  /// The class of the field's value, when it is one of the definitions' classes (`ui.root`
  /// is a `View`), so that the linter knows its fields too.
  var valueClass: String?
}

/// A class of the definitions: the fields of a global table, a userdata type or a table
/// the API returns.
struct DefinitionClass: Equatable, Sendable {
  var name: String
  var parent: String?
  var summary: String
  var fields: [DefinitionField] = []
  /// The call signature when the value can be called (`test("name", fn)`).
  var call: LuaDoc?
  /// Whether it has fields beyond the ones listed, read and written freely (`view.env`).
  var isOpen = false
  var file: DefinitionFile = .api

  /// The field named `name`, if any.
  func field(_ name: String) -> DefinitionField? { fields.first { $0.name == name } }
}

/// A global the definitions declare: a table or object of a class, or a function.
struct DefinitionGlobal: Equatable, Sendable {
  var name: String
  /// The class of its value; nil for a function global (then ``doc`` is its signature).
  var valueClass: String?
  var doc: LuaDoc
  var file: DefinitionFile
}

/// A global of the standard library as the sandbox has it, for the linter: its name and,
/// for a table, the names of its fields (and which of those are tables themselves).
struct StandardGlobal: Equatable, Sendable {
  var name: String
  /// The field names of a table; nil for a value that is not a table.
  var fields: [String]?
  /// Whether the value is a function (anything else that is not a table, a string say,
  /// takes any field: its methods).
  var isFunction = false
  /// The fields whose values are tables (`package.loaded`): they take any field.
  var tableFields: Set<String> = []
}

/// Everything walked from a live state: what the renderers write.
struct DefinitionSet: Sendable {
  var globals: [DefinitionGlobal] = []
  var classes: [DefinitionClass] = []
  var standard: [StandardGlobal] = []
  /// The modules walked, by name, with the class of each (nil when the module's value is
  /// not a table: then its doc says what it is).
  var modules: [(name: String, valueClass: String?, doc: LuaDoc)] = []
  /// The standard libraries the sandbox leaves out entirely (`io`), which editors should
  /// not offer.
  var missingLibraries: [String] = []
  /// What the walk found undocumented, or documented but missing.
  var notes: [String] = []

  /// The class named `name`, if any.
  func `class`(_ name: String) -> DefinitionClass? { classes.first { $0.name == name } }
}
