/// Writes the `.luarc.json` that points the Lua language server at the definition files:
/// Lua 5.4, the `.luahost` folder as a library, and the standard libraries the sandbox
/// leaves out turned off, so that completion does not offer them.
enum LuarcRenderer {
  /// What marks a `.luarc.json` as written here (its library entry), so a later run may
  /// replace it.
  static let mark = "\"workspace.library\": [\"\(LuaDefinitions.folder)\"]"

  static func render(_ set: DefinitionSet) -> String {
    var lines = [
      "  \"$schema\": \"https://raw.githubusercontent.com/LuaLS/vscode-lua/master/setting/schema.json\"",
      "  \"runtime.version\": \"Lua 5.4\"",
    ]
    if !set.missingLibraries.isEmpty {
      let off = set.missingLibraries.map { "\"\($0)\": \"disable\"" }.joined(separator: ", ")
      lines.append("  \"runtime.builtin\": { \(off) }")
    }
    lines += ["  " + mark, "  \"workspace.checkThirdParty\": false"]
    return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
  }
}
