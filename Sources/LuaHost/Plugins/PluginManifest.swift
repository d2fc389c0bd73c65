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
  /// Libraries the plugin asks for; the host grants only those it allows.
  public var capabilities: Set<LuaSandbox.Capability>

  /// Creates a manifest.
  public init(name: String, version: String? = nil, capabilities: Set<LuaSandbox.Capability> = []) {
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
      value = try lua.run(source, name: "=manifest.lua").first ?? .nil
    } catch let error as LuaError {
      throw bad(error.message)
    }
    guard case .table(let table) = value else { throw bad("manifest.lua must return a table") }
    do {
      name = try String?(luaValue: table.rawGet("name")) ?? defaultName
      version = try String?(luaValue: table.rawGet("version"))
      capabilities = []
      for entry in try [String]?(luaValue: table.rawGet("capabilities")) ?? [] {
        guard let capability = LuaSandbox.Capability(rawValue: entry) else {
          throw bad("unknown capability '\(entry)' (known: io, os, package, debug)")
        }
        capabilities.insert(capability)
      }
    } catch let error as LuaError {
      throw bad(error.message)
    }
    guard !name.isEmpty, !name.contains("/") else { throw bad("bad plugin name '\(name)'") }
  }
}

/// Why a plugin could not be loaded or run.
public enum PluginError: Error, Equatable, CustomStringConvertible {
  /// The path is neither a `.lua` file nor a folder with `init.lua`.
  case notAPlugin(path: String)
  /// `manifest.lua` failed or is malformed.
  case badManifest(plugin: String, reason: String)
  /// The manifest asks for capabilities the host has not allowed.
  case capabilitiesNotAllowed(plugin: String, capabilities: [String])
  /// Another loaded plugin has the same name.
  case duplicateName(String)
  /// No plugin of that name is loaded.
  case unknownPlugin(String)

  /// A readable explanation.
  public var description: String {
    switch self {
    case .notAPlugin(let path): "\(path) is not a plugin (a .lua file, or a folder with init.lua)"
    case .badManifest(let plugin, let reason): "plugin \(plugin): bad manifest.lua: \(reason)"
    case .capabilitiesNotAllowed(let plugin, let capabilities):
      "plugin \(plugin) asks for \(capabilities.joined(separator: ", ")), which the host has not allowed"
        + " (--allow \(capabilities.joined(separator: ",")))"
    case .duplicateName(let name): "a plugin named \(name) is already loaded"
    case .unknownPlugin(let name): "no plugin named \(name) is loaded"
    }
  }
}
