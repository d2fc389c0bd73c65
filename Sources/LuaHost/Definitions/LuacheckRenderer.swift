/// Writes the `.luacheckrc`: luacheck's globals, as read-only globals with their fields, so
/// that `ui.buton` or `timer.slep` is "accessing undefined field", and a field that is
/// not settable is "setting read-only field". Two named sets: `luahost` (what a plugin
/// sees: the sandbox's standard library and the host's globals) and `luahost_test` (what
/// `luahost test` adds), for `*_test.lua` files.
enum LuacheckRenderer {
  /// The line that marks a `.luacheckrc` as written here, which a later run may replace.
  static let mark = "-- Generated from the live LuaHost API by "

  static func render(_ set: DefinitionSet, generator: String) -> String {
    var text = """
      \(mark)\(generator); run it again instead of editing.
      -- The globals a LuaHost plugin sees, with their fields, for luacheck.
      stds.luahost = {
        read_globals = {

      """
    for global in set.standard {
      text += "    \(key(global.name)) = \(standardDefinition(global)),\n"
    }
    for global in set.globals where global.file == .api {
      text += "    \(key(global.name)) = \(definition(of: global, in: set, indent: 4)),\n"
    }
    text += "  },\n}\n"
    let testing = set.globals.filter { $0.file == .testing }
    if !testing.isEmpty {
      text += "-- What luahost test adds, for *_test.lua files.\nstds.luahost_test = {\n"
      text += "  read_globals = {\n"
      for global in testing {
        text += "    \(key(global.name)) = \(definition(of: global, in: set, indent: 4)),\n"
      }
      text += "  },\n}\n"
    }
    text += """
      std = "luahost"
      \(testing.isEmpty ? "" : "files[\"**/*_test.lua\"] = { std = \"luahost+luahost_test\" }\n")\
      -- A plugin's own globals are the functions the host calls by name (Plugin.call), so
      -- they may be set at the top level and need no use in the plugin itself.
      allow_defined_top = true
      -- Every handler receives its view first (on_tap = function(self) … end), used or not.
      ignore = { "131", "212/self" }
      exclude_files = { ".luahost/**/*.lua" }

      """
    return text
  }

  /// A standard global: a table's fields (those that are tables take any field and may
  /// be assigned, as `package.loaded.x`), or nothing for a function or a value.
  private static func standardDefinition(_ global: StandardGlobal) -> String {
    if global.name == "_G" { return "{ other_fields = true }" }
    guard let fields = global.fields else {
      return global.isFunction ? "{}" : "{ other_fields = true }"
    }
    let list = fields.map { name in
      "\(key(name)) = "
        + (global.tableFields.contains(name)
          ? "{ read_only = false, other_fields = true }" : "{}")
    }
    return "{ fields = { " + list.joined(separator: ", ") + " } }"
  }

  /// A host global: a class's fields, each one level deep (a field whose value is an
  /// object of a class lists that class's fields: `ui.root.title`), or nothing for a
  /// function.
  private static func definition(of global: DefinitionGlobal, in set: DefinitionSet, indent: Int)
    -> String
  {
    guard let className = global.valueClass, let definition = set.class(className) else {
      return "{}"
    }
    return fields(of: definition, in: set, indent: indent, expand: true)
  }

  private static func fields(
    of definition: DefinitionClass, in set: DefinitionSet, indent: Int, expand: Bool
  ) -> String {
    let pad = String(repeating: " ", count: indent + 2)
    var text = "{\n\(pad)fields = {\n"
    for field in definition.fields {
      let entry = self.field(field, in: set, indent: indent + 4, expand: expand)
      text += "\(pad)  \(key(field.name)) = \(entry),\n"
    }
    text += "\(pad)},\n"
    if definition.isOpen { text += "\(pad)other_fields = true,\n" }
    return text + String(repeating: " ", count: indent) + "}"
  }

  /// One field: a function takes no field; a value takes any field (a string has methods,
  /// a table entries) unless it is an object of a class and `expand` lists its fields.
  private static func field(
    _ field: DefinitionField, in set: DefinitionSet, indent: Int, expand: Bool
  )
    -> String
  {
    let settable = field.isSettable ? "read_only = false, " : ""
    if field.kind != .value { return field.isSettable ? "{ read_only = false }" : "{}" }
    guard let className = field.valueClass, let definition = set.class(className) else {
      return "{ \(settable)other_fields = true }"
    }
    if definition.isOpen { return "{ read_only = false, other_fields = true }" }
    guard expand else { return "{ \(settable)other_fields = true }" }
    let nested = fields(of: definition, in: set, indent: indent, expand: false)
    return field.isSettable ? nested.replacingFirstBrace(with: "{ read_only = false,") : nested
  }

  /// A table key for `name`: the name itself, or `["name"]` for a reserved word.
  private static func key(_ name: String) -> String {
    LuaName.isIdentifier(name) ? name : "[\"\(name)\"]"
  }
}

extension String {
  /// The text with its first `{` replaced by `replacement`.
  fileprivate func replacingFirstBrace(with replacement: String) -> String {
    guard let brace = firstIndex(of: "{") else { return self }
    return self[..<brace] + replacement + self[index(after: brace)...]
  }
}
