import Lua
import LuaHost
import ViewTree

/// `luahost definitions [--plugins DIR] [--output DIR]`: writes the editor definitions and
/// linter configs of what luahost's plugins and their tests see, read from the live API.
package enum DefinitionsCommand {
  /// The usage text.
  package static let usage = """
    usage: luahost definitions [--plugins DIR] [--output DIR]
    Writes what an editor and a linter need for luahost plugins and their tests, read from
    the live API (ui, the view classes, timer, alerts, test and expect):
      .luahost/*.lua   Lua language server (LuaLS) definition files (---@meta)
      .luarc.json      points LuaLS at them
      .luacheckrc      the same globals and their fields, for luacheck
      --plugins DIR      for the plugins in DIR, as luahost --plugins DIR hosts them;
                         written into DIR unless --output says otherwise
      --output DIR       where to write (default: the --plugins folder, else the current one)
    A .luarc.json or .luacheckrc that luahost did not write is left alone (an error).
    Exit status: 0 written, 1 a file could not be written, 2 usage error.
    """

  /// Runs the command; returns the exit status.
  package static func run(arguments: [String]) -> ExitStatus {
    var plugins: String?
    var output: String?
    var index = 0
    do {
      while index < arguments.count {
        let word = arguments[index]
        switch word {
        case "--help", "-h":
          StandardStreams.out(usage + "\n")
          return .success
        case "--plugins", "--output":
          index += 1
          guard index < arguments.count else { throw UsageError("'\(word)' needs an argument") }
          if word == "--plugins" { plugins = arguments[index] } else { output = arguments[index] }
        default: throw UsageError("unrecognized argument '\(word)'")
        }
        index += 1
      }
      if let plugins, !PluginHost.isDirectory(plugins) {
        throw UsageError("--plugins: \(plugins) is not a directory")
      }
    } catch {
      StandardStreams.error("luahost definitions: \(error)\n\(usage)\n")
      return .usage
    }
    let folder = output ?? plugins ?? "."
    do {
      let definitions = try Self.definitions()
      try definitions.write(to: folder)
      for note in definitions.notes {
        StandardStreams.error("luahost definitions: note: \(note)\n")
      }
      StandardStreams.out(
        "wrote " + definitions.files.map(\.path).joined(separator: ", ") + " in \(folder)\n")
      return .success
    } catch {
      StandardStreams.error("luahost definitions: \(error)\n")
      return .failure
    }
  }

  /// The definitions of what a plugin of `luahost --plugins` sees, read from the plugin
  /// host that option makes (``RunLimits/pluginHost(container:output:)``), and of what
  /// `luahost test` adds.
  /// - Throws: `LuaError` if a sandbox cannot be made.
  package static func definitions(limits: RunLimits = RunLimits()) throws -> LuaDefinitions {
    let host = limits.pluginHost(container: View.stack(id: "plugins"), output: { _ in })
    let version = ScriptRunner.version.prefix { $0 != "," }
    var definitions = try host.definitions(generator: "luahost definitions (\(version))")
    try TestDefinitions.add(to: &definitions)
    return definitions
  }
}
