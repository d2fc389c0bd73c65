import LuaHost

/// `luahost new plugin NAME [--in DIR]`: makes a plugin folder that runs, and whose tests
/// pass, as made: ``PluginTemplate``'s files and the editor definitions and linter configs
/// of `luahost definitions`.
package enum NewPluginCommand {
  /// The usage text.
  package static let usage = """
    usage: luahost new plugin NAME [--in DIR]
    Makes the folder DIR/NAME (DIR: the current folder) holding a plugin that runs and whose
    tests pass as made: manifest.lua, init.lua, NAME_test.lua, and what luahost definitions
    writes (.luarc.json, .luacheckrc, .luahost/). NAME: 1 to 64 letters, digits, '_', '-'
    and '.', not starting with '.' nor ending with .lua.
    Exit status: 0 made, 1 the folder exists or cannot be made, 2 usage error (a bad NAME).
    """

  /// Runs the command; returns the exit status.
  package static func run(arguments: [String]) -> ExitStatus {
    if ["--help", "-h"].contains(arguments.first) || arguments == ["plugin", "--help"] {
      StandardStreams.out(usage + "\n")
      return .success
    }
    let name: String
    var parent = "."
    do {
      guard arguments.first == "plugin" else {
        throw UsageError(
          arguments.isEmpty ? "what to make is missing" : "cannot make '\(arguments[0])'")
      }
      guard arguments.count > 1, !arguments[1].hasPrefix("--") else {
        throw UsageError("the plugin's NAME is missing")
      }
      name = arguments[1]
      var index = 2
      while index < arguments.count {
        guard arguments[index] == "--in", index + 1 < arguments.count else {
          throw UsageError(
            arguments[index] == "--in"
              ? "'--in' needs an argument" : "unrecognized argument '\(arguments[index])'")
        }
        parent = arguments[index + 1]
        index += 2
      }
      guard isValid(name) else {
        throw UsageError(
          "bad plugin name '\(name.visibleControls(keepingNewlines: false))': 1 to 64 letters, "
            + "digits, '_', '-' and '.', not starting with '.' nor ending with .lua")
      }
    } catch {
      StandardStreams.error("luahost new: \(error)\n\(usage)\n")
      return .usage
    }
    let folder = parent == "." ? name : parent + "/" + name
    guard !PluginHost.isDirectory(folder) && !PluginHost.isFile(folder) else {
      StandardStreams.error("luahost new: \(folder) exists already; choose another name or --in\n")
      return .failure
    }
    do {
      let template = PluginTemplate(name: name)
      let definitions = try DefinitionsCommand.definitions()
      for file in template.files {
        try FileOutput.write(file.contents, to: folder + "/" + file.name)
      }
      try definitions.write(to: folder)
      let made = template.files.map(\.name) + [".luarc.json", ".luacheckrc", ".luahost/"]
      StandardStreams.out(
        "made \(folder): \(made.joined(separator: ", "))\n"
          + "test it: luahost test --plugins \(parent) \(folder)\n")
      return .success
    } catch {
      StandardStreams.error("luahost new: \(error)\n")
      return .failure
    }
  }

  /// Whether `name` can name a new plugin: a valid plugin name that the plugin loader
  /// would take for this folder (not hidden, and not ending with `.lua`).
  static func isValid(_ name: String) -> Bool {
    PluginManifest.isValidName(name) && !name.hasPrefix(".") && !name.hasSuffix(".lua")
  }
}
