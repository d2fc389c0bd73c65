import Lua

extension DefinitionWalker {
  /// The globals a state of the standard libraries has (`print`, `string`, `io`…), read
  /// from a fresh one: what tells the host's globals from Lua's own. `libraries` are the
  /// tables among them (`_G` aside).
  static func standardGlobals() throws -> (names: Set<String>, libraries: Set<String>) {
    let stock = try LuaState(libraries: .all)
    defer { stock.close() }
    var names = Set<String>()
    var libraries = Set<String>()
    for case (.string(let key), let value) in try stock.globals().pairs() {
      names.insert(key.description)
      if case .table = value, key.description != "_G" { libraries.insert(key.description) }
    }
    return (names, libraries)
  }

  /// Walks the state's globals: those of the standard library as the sandbox has them (for
  /// the linter, with their fields), and returns the others, the host's, sorted.
  mutating func walkStandardGlobals(
    standard: (names: Set<String>, libraries: Set<String>)
  ) throws -> [String] {
    var host: [String] = []
    var present = Set<String>()
    for case (.string(let key), let value) in try lua.globals().pairs() {
      let name = key.description
      present.insert(name)
      guard standard.names.contains(name) else {
        if LuaName.isIdentifier(name) { host.append(name) }
        continue
      }
      var global = StandardGlobal(name: name, fields: nil)
      if case .function = value { global.isFunction = true }
      if case .table(let table) = value, name != "_G" {
        var fields: [String] = []
        for case (.string(let field), let fieldValue) in try table.pairs()
        where LuaName.isIdentifier(field.description) {
          fields.append(field.description)
          if case .table = fieldValue { global.tableFields.insert(field.description) }
        }
        global.fields = fields.sorted()
      }
      set.standard.append(global)
    }
    set.standard.sort { $0.name < $1.name }
    set.missingLibraries = standard.libraries.subtracting(present).sorted()
    return host.sorted()
  }

  /// Walks the host's globals `names` into `file`: a table or an object becomes a class
  /// of the global's name; a function is documented as `_G.name`.
  mutating func walkHostGlobals(_ names: [String], file: DefinitionFile) throws {
    let globals = try lua.globals()
    for name in names {
      let value = try globals.rawGet(.string(LuaString(name)))
      switch value {
      case .table, .userdata:
        set.classes.append(try walkClass(name, of: value, file: file))
        set.globals.append(
          DefinitionGlobal(
            name: name, valueClass: name, doc: LuaDoc(name, summaries[name] ?? ""), file: file))
      case .function:
        set.globals.append(
          DefinitionGlobal(
            name: name, valueClass: nil, doc: document("_G.\(name)", fallback: untypedFunction),
            file: file))
      default:
        set.globals.append(
          DefinitionGlobal(
            name: name, valueClass: nil,
            doc: document("_G.\(name)", fallback: LuaDoc(Self.typeName(of: value), "")),
            file: file))
      }
    }
  }

  /// Walks a host module's value, as `require` gives it: a table becomes a class of the
  /// module's name (its nested tables, classes of their own: `tasks.store`), documented
  /// from what the app described; any other value is described by its summary.
  mutating func walkModule(_ module: HostModule, value: LuaValue) throws {
    let name = module.name
    for (path, doc) in module.documentation.fields { documentation["\(name).\(path)"] = doc }
    let summary = module.documentation.summary ?? ""
    if module.documentation.summary == nil { set.notes.append("module \(name) has no summary") }
    summaries[name] = summary
    guard case .table = value else {
      let doc =
        if case .function = value { LuaDoc.function(["...: any"], returns: ["any"], summary) } else
        {
          LuaDoc(Self.typeName(of: value), summary)
        }
      set.modules.append((name, nil, doc))
      return
    }
    var visited: [LuaValue] = []
    try walkTable(name, of: value, file: .module(name), depth: 0, visited: &visited)
    set.modules.append((name, name, LuaDoc(name, summary)))
    noteUnused(under: [name])
  }

  /// A module table and, first, the tables inside it (at most four levels, each once),
  /// each a class named by its path.
  private mutating func walkTable(
    _ className: String, of value: LuaValue, file: DefinitionFile, depth: Int,
    visited: inout [LuaValue]
  ) throws {
    visited.append(value)
    guard case .table(let table) = value else { return }
    for case (.string(let key), let field) in try table.pairs() {
      guard case .table = field, LuaName.isIdentifier(key.description), depth < 4,
        !visited.contains(field)
      else { continue }
      let nested = "\(className).\(key.description)"
      let described = documentation[nested]
      summaries[nested] = described?.summary ?? ""
      try walkTable(nested, of: field, file: file, depth: depth + 1, visited: &visited)
      documentation[nested] = LuaDoc(nested, described?.summary ?? "")
    }
    set.classes.append(try walkClass(className, of: value, file: file))
  }

  /// Gives each value field whose documented type names a class of the definitions that
  /// class (`View.parent: View?`), so the linter knows its fields too.
  mutating func resolveValueClasses() {
    let names = Set(set.classes.map(\.name))
    for index in set.classes.indices {
      for field in set.classes[index].fields.indices {
        let entry = set.classes[index].fields[field]
        guard entry.kind == .value, entry.valueClass == nil else { continue }
        let type =
          entry.doc.type.hasSuffix("?") ? String(entry.doc.type.dropLast()) : entry.doc.type
        if names.contains(type) { set.classes[index].fields[field].valueClass = type }
      }
    }
  }
}
