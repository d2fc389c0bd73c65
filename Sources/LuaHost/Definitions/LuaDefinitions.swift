import Lua

/// What an editor and a linter need to know about the Lua API a script sees, read from a
/// live state, so it never drifts from it: LuaLS definition files (`---@meta`) for `ui`
/// and its constructors, the view class with its fields, methods and events, `timer`, the
/// alert, the app's components and modules; a `.luarc.json` that points LuaLS at them;
/// and a `.luacheckrc` that gives luacheck the same globals and their fields.
///
/// ```swift
/// let definitions = try plugins.definitions()        // PluginHost: what its plugins see
/// try definitions.write(to: "Plugins")               // .luarc.json, .luacheckrc, .luahost/
/// for note in definitions.notes { print(note) }      // e.g. "slider.value is not documented"
/// ```
///
/// The names come from the live API: `ui`'s fields, the view userdata's registered fields
/// (a field is settable when assigning it works), a real alert's table, the components'
/// declared properties, methods and events, the modules' tables as `require` returns
/// them. Types and summaries come from LuaHost's own documentation and from what the app
/// gave `ScriptedComponent.describe` and `HostModule.describe`; anything undocumented
/// is written with a loose type and listed in ``notes``.
public struct LuaDefinitions: Sendable {
  /// One generated file.
  public struct File: Sendable, Equatable {
    /// Its path, relative to the folder the definitions go in (`.luahost/luahost-api.lua`).
    public var path: String
    /// Its text.
    public var contents: String
  }

  /// A file ``LuaDefinitions/write(to:)`` did not write.
  public struct CannotWrite: Error, CustomStringConvertible {
    /// The file's path.
    public let path: String
    /// Why, as the system says it, or because a file of that name was not generated.
    public let reason: String
    /// `cannot write PATH: REASON`.
    public var description: String { "cannot write \(path): \(reason)" }
  }

  var set: DefinitionSet
  /// Who wrote the files, for their header (`luahost definitions (luahost 0.1.0)`).
  let generator: String

  /// What the walk found undocumented, or documented but missing from the live API, one
  /// line each: empty when every name has a type and a summary.
  public var notes: [String] { Array(Set(set.notes)).sorted() }

  /// The files, in a fixed order: `.luarc.json`, `.luacheckrc`, then the `.luahost/`
  /// definition files.
  public var files: [File] {
    [
      File(path: ".luarc.json", contents: LuarcRenderer.render(set)),
      File(path: ".luacheckrc", contents: LuacheckRenderer.render(set, generator: generator)),
    ]
      + MetaFileRenderer.files(of: set, generator: generator).map {
        File(path: Self.folder + "/" + $0.path, contents: $0.contents)
      }
  }

  /// The folder, beside the configs, that holds the definition files. Hidden, so that a
  /// plugins folder can hold it without it being taken for a plugin.
  public static let folder = ".luahost"

  /// The definitions of what scripts of `tree` see: the globals of its state beyond the
  /// standard library's (`ui`, `timer`, and any the app set), with the classes behind
  /// them and the tree's components; the standard library as the state has it (for the
  /// linter, and the libraries it lacks, for LuaLS); and those of `modules` loaded in the
  /// state (`package.loaded`). The walk makes a few objects in the state (a view, an
  /// alert, a timer handle), which the collector frees.
  /// - Parameters:
  ///   - tree: the tree whose state is read.
  ///   - modules: the app's modules to describe, as the state has them loaded.
  ///   - generator: who writes the files, for their header.
  /// - Throws: `LuaError` when the state is closed or the walk fails.
  public init(tree: ScriptedTree, modules: [HostModule] = [], generator: String = "LuaHost")
    throws
  {
    self.generator = generator
    set = try tree.withState { lua in
      var walker = DefinitionWalker(
        lua: lua, documentation: BuiltInDocumentation.fields,
        summaries: BuiltInDocumentation.classes)
      for component in tree.components.values {
        walker.documentation["ui.\(component.name)"] = .function(
          [LuaDoc.Parameter("spec?", "\(component.name)Spec|string")], returns: [component.name],
          (component.documentation.summary ?? "An app-defined kind of view.")
            + " A string is its id.")
      }
      let host = try walker.walkStandardGlobals(standard: DefinitionWalker.standardGlobals())
      try walker.walkHostGlobals(host, file: .api)
      try walker.walkTree(tree)
      let loaded = try lua.globals().rawGet("package")
      for module in modules.sorted(by: { $0.name < $1.name }) {
        let value =
          try
          (loaded.table?.rawGet("loaded").table?.rawGet(
            .string(LuaString(module.name)))) ?? .nil
        guard !value.isNil else {
          walker.set.notes.append("module \(module.name) is not loaded in this state")
          continue
        }
        try walker.walkModule(module, value: value)
      }
      walker.noteUnused(under: ["ui", "View", "Environment", "Alert", "AlertHandler", "UIError"])
      walker.noteUnused(under: ["timer", "Timer"])
      walker.resolveValueClasses()
      return walker.set
    }
  }

  /// Adds the globals `names` of `lua` (what a test runner installs beside the plugin's
  /// API: `test`, `expect`…) as the testing file, documented from `documentation`
  /// (`name.field`, `_G.name` for a function global, `name()` for a callable table) and
  /// `summaries`, with `tables`: classes of tables the API reads but the walk cannot see
  /// (an argument's fields), or that extend one (a parent's name).
  package mutating func addTestingGlobals(
    _ names: [String], of lua: LuaState, documentation: [String: LuaDoc],
    summaries: [String: String],
    tables: [(name: String, parent: String?, fields: [String: LuaDoc])] = []
  ) throws {
    var walker = DefinitionWalker(lua: lua, documentation: documentation, summaries: summaries)
    try walker.walkHostGlobals(names, file: .testing)
    walker.noteUnused(under: ["_G"] + names)
    for table in tables {
      var definition = DefinitionClass(
        name: table.name, parent: table.parent, summary: walker.summary(of: table.name),
        file: .testing)
      definition.fields = table.fields.sorted { $0.key < $1.key }.map {
        DefinitionField(name: $0.key, kind: .value, doc: $0.value)
      }
      walker.set.classes.append(definition)
    }
    walker.set.classes = set.classes + walker.set.classes
    walker.resolveValueClasses()
    set.classes = walker.set.classes
    set.globals += walker.set.globals
    set.notes += walker.set.notes
  }

  /// Writes ``files`` into `directory`, making it and `.luahost/` if needed, and replacing
  /// the files an earlier run wrote. A `.luarc.json` or `.luacheckrc` that these
  /// definitions did not write (it lacks their mark) is left alone, and nothing is written.
  /// - Throws: ``CannotWrite`` for a folder or file that cannot be made or written, or a
  ///   config of the user's own in the way.
  public func write(to directory: String) throws {
    let files = files
    for file in files where !file.path.hasPrefix(Self.folder + "/") {
      let path = directory + "/" + file.path
      guard let existing = try? LuaState.readFile(path, maxSize: 1 << 20) else { continue }
      let text = String(decoding: existing, as: UTF8.self)
      let mark = file.path == ".luarc.json" ? LuarcRenderer.mark : LuacheckRenderer.mark
      guard text.contains(mark) else {
        throw CannotWrite(
          path: path,
          reason: "it exists and was not generated from the LuaHost API; move it away first")
      }
    }
    for file in files {
      try FileOutput.write(file.contents, to: directory + "/" + file.path)
    }
  }
}

extension LuaValue {
  /// The table this value is, if it is one.
  fileprivate var table: LuaTable? {
    if case .table(let table) = self { table } else { nil }
  }
}
