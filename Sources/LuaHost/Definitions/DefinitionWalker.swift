import Lua

/// Reads the Lua API off a live state: the names of its globals, the fields of their
/// values and of the objects they return, and how each is used (read, called, called as a
/// method, assigned). Each name then takes its type and summary from `documentation`; a
/// name without one, or an entry without a name, becomes a note. Every read is raw or a
/// registered Swift getter: no script code runs, except the walk's own probes on views it
/// made itself (see `settableFields(of:in:)`).
///
/// Call its methods holding the state's lock.
struct DefinitionWalker {
  let lua: LuaState
  /// Types and summaries by `Class.field` or `Class:method`.
  var documentation: [String: LuaDoc]
  /// One line per class.
  var summaries: [String: String]
  var set = DefinitionSet()
  /// The documentation entries the walk used.
  private(set) var used: Set<String> = []

  init(lua: LuaState, documentation: [String: LuaDoc], summaries: [String: String]) {
    self.lua = lua
    self.documentation = documentation
    self.summaries = summaries
  }

  /// A member of a live value: its name, and its value when a read gives one without
  /// running code (nil for a userdata's method).
  struct Member {
    var name: String
    var value: LuaValue?
  }

  /// The members of `value` a script can name with `.name`: a table's string keys (raw),
  /// a Swift object's registered properties and methods. Names that are not Lua names
  /// are left out with a note (no editor can complete them).
  mutating func members(of value: LuaValue, className: String) throws -> [Member] {
    var found: [Member] = []
    switch value {
    case .table(let table):
      for case (.string(let key), let field) in try table.pairs() {
        found.append(Member(name: key.description, value: field))
      }
    case .userdata:
      for name in lua.fieldNames(of: value) {
        found.append(Member(name: name, value: lua.rawField(of: value, name)))
      }
    default: return []
    }
    return found.filter { member in
      guard LuaName.isIdentifier(member.name) else {
        set.notes.append("\(className): '\(member.name)' is not a Lua name; left out")
        return false
      }
      return true
    }.sorted { $0.name < $1.name }
  }

  /// A class over the live `value`, its fields documented from ``documentation`` (as
  /// `className.field`, or `className:field` for a method). A userdata's member that is
  /// not a property is a method; a table's function is a function unless documented as
  /// a method.
  mutating func walkClass(
    _ className: String, of value: LuaValue, file: DefinitionFile, settable: Set<String> = []
  ) throws -> DefinitionClass {
    var definition = DefinitionClass(
      name: className, parent: nil, summary: summary(of: className), file: file)
    let isObject = if case .userdata = value { true } else { false }
    for member in try members(of: value, className: className) {
      var field = self.field(
        member.name, of: className, value: member.value,
        undocumentedKind: isObject && member.value == nil ? .method : nil)
      field.isSettable = settable.contains(member.name)
      definition.fields.append(field)
    }
    if case .table(let table) = value, let metatable = try table.metatable(),
      case .function = try metatable.rawGet("__call")
    {
      definition.call = document("\(className)()", fallback: untypedFunction)
    }
    return definition
  }

  /// The field `name` of `className`, documented: a `:` entry makes it a method, a
  /// function doc a function, anything else a value. `undocumentedKind` says what an
  /// undocumented member is when its value does not (a userdata's method).
  mutating func field(
    _ name: String, of className: String, value: LuaValue?, undocumentedKind: DefinitionField.Kind?
  ) -> DefinitionField {
    if let doc = documentation["\(className):\(name)"] {
      used.insert("\(className):\(name)")
      return DefinitionField(name: name, kind: .method, doc: doc, valueClass: nil)
    }
    let key = "\(className).\(name)"
    if let doc = documentation[key] {
      used.insert(key)
      return DefinitionField(
        name: name, kind: doc.isFunction ? .function : .value, doc: doc,
        valueClass: objectClass(of: value))
    }
    set.notes.append("\(key) is not documented")
    if let undocumentedKind {
      return DefinitionField(name: name, kind: undocumentedKind, doc: untypedFunction)
    }
    if case .function = value {
      return DefinitionField(name: name, kind: .function, doc: untypedFunction)
    }
    return DefinitionField(
      name: name, kind: .value, doc: LuaDoc(Self.typeName(of: value), ""),
      valueClass: objectClass(of: value))
  }

  /// The doc of `key`, marked as used; `fallback` with a note when there is none.
  mutating func document(_ key: String, fallback: LuaDoc) -> LuaDoc {
    guard let doc = documentation[key] else {
      set.notes.append("\(key) is not documented")
      return fallback
    }
    used.insert(key)
    return doc
  }

  /// One line about `className`, or an empty one with a note.
  mutating func summary(of className: String) -> String {
    guard let summary = summaries[className] else {
      set.notes.append("class \(className) has no summary")
      return ""
    }
    return summary
  }

  /// The doc of a function nothing documents: any arguments, any results.
  var untypedFunction: LuaDoc { .function(["...: any"], returns: ["any"], "") }

  /// The class of the Swift objects LuaHost gives Lua, by their registered type.
  func objectClass(of value: LuaValue?) -> String? {
    guard case .userdata(let userdata)? = value, let object = userdata.object(as: AnyObject.self)
    else { return nil }
    return objectClasses[ObjectIdentifier(type(of: object))]
  }

  /// Classes of Swift objects, filled in as the walk meets them.
  var objectClasses: [ObjectIdentifier: String] = [:]

  /// The LuaLS type of a value nothing documents.
  static func typeName(of value: LuaValue?) -> String {
    switch value {
    case .integer?: "integer"
    case .number?: "number"
    case .string?: "string"
    case .boolean?: "boolean"
    case .table?: "table"
    case .function?: "function"
    default: "any"
    }
  }

  /// Notes every documented entry under `prefixes` that the walk did not use: a name the
  /// live API lost, or a typo.
  mutating func noteUnused(under prefixes: [String]) {
    for key in documentation.keys.sorted() where !used.contains(key) {
      guard prefixes.contains(where: { key.hasPrefix($0 + ".") || key.hasPrefix($0 + ":") })
      else { continue }
      set.notes.append("\(key) is documented but the live API has no such field")
    }
  }
}

/// Lua names: what an editor can complete after `.` and a config can use as a key.
enum LuaName {
  /// Whether `text` is a Lua name (`String.isLuaName`) of at most 64 bytes, as a
  /// component's names are.
  static func isIdentifier(_ text: String) -> Bool {
    text.utf8.count <= 64 && text.isLuaName
  }
}
