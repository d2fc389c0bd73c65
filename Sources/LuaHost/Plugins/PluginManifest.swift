import Lua

/// What a plugin says about itself in `manifest.lua`, a file that returns a table:
///
/// ```lua
/// return { name = "weather", version = "1.2.0", capabilities = { "os" } }
/// ```
///
/// The manifest is data: it is evaluated in an empty state (no libraries) with a tiny
/// memory and instruction budget, so it can neither reach anything nor hang.
public struct PluginManifest: Equatable, Sendable {
  /// The plugin's name (its panel's id); defaults to the file or folder name.
  public var name: String
  /// A version string, for display.
  public var version: String?
  /// What the plugin asks for (libraries, an app's modules); the host grants only what it
  /// allows, and refuses to load a plugin that asks for more.
  public var capabilities: Set<PluginCapability>

  /// Creates a manifest.
  public init(name: String, version: String? = nil, capabilities: Set<PluginCapability> = []) {
    self.name = name
    self.version = version
    self.capabilities = capabilities
  }

  /// Reads `manifest.lua` source.
  /// - Throws: ``PluginError/badManifest(plugin:reason:)`` when it fails or is malformed.
  public init(source: String, defaultName: String) throws {
    func bad(_ reason: String) -> PluginError { .badManifest(plugin: defaultName, reason: reason) }
    let lua = try LuaState(libraries: .none, memoryLimit: 256 << 10)
    defer { lua.close() }
    lua.instructionLimit = 100_000
    let value: LuaValue
    do {
      // As a script is read: a byte order mark and a `#` first line are skipped.
      value =
        try lua.load(script: Array(source.utf8), name: "=manifest.lua").call().first ?? .nil
    } catch let error as LuaError {
      throw bad(error.message)
    }
    guard case .table(let table) = value else { throw bad("manifest.lua must return a table") }
    do {
      name = try String?(luaValue: table.rawGet("name")) ?? defaultName
      version = try String?(luaValue: table.rawGet("version"))
      capabilities = []
      for entry in try [String]?(luaValue: table.rawGet("capabilities")) ?? [] {
        guard !entry.isEmpty,
          entry.utf8.allSatisfy({
            $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || ($0 >= 0x30 && $0 <= 0x39)
              || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A)
          })
        else {
          throw bad("bad capability name '\(entry.visibleControls(keepingNewlines: false))'")
        }
        capabilities.insert(PluginCapability(rawValue: entry))
      }
    } catch let error as LuaError {
      throw bad(error.message)
    }
    guard Self.isValidName(name) else {
      throw bad("bad plugin name '\(name.visibleControls(keepingNewlines: false))'")
    }
  }

  /// Whether `name` may name a plugin: 1 to 64 ASCII letters, digits, `_`, `-` and `.`,
  /// not all dots. The name labels every line the plugin prints (`[name] `) and is its
  /// panel's id, so it can hold nothing that forges a label or a path: no control
  /// character, bracket, space or `/`, and no `.` or `..` (`root/plugins/..`).
  public static func isValidName(_ name: String) -> Bool {
    (1...64).contains(name.utf8.count) && !name.utf8.allSatisfy { $0 == UInt8(ascii: ".") }
      && name.utf8.allSatisfy {
        $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
          || ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A)
      }
  }
}
