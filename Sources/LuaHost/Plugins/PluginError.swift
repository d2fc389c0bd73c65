/// Why a plugin could not be loaded or run.
public enum PluginError: Error, Equatable, CustomStringConvertible {
  /// The path is neither a `.lua` file nor a folder with `init.lua`.
  case notAPlugin(path: String)
  /// `manifest.lua` failed or is malformed.
  case badManifest(plugin: String, reason: String)
  /// The manifest asks for capabilities the host has not allowed.
  case capabilitiesNotAllowed(plugin: String, capabilities: [String])
  /// The manifest asks for a capability that is neither a library nor one of the host's
  /// modules.
  case unknownCapability(plugin: String, capability: String, known: [String])
  /// Another loaded plugin has the same name.
  case duplicateName(String)
  /// No plugin of that name is loaded.
  case unknownPlugin(String)
  /// The plugin's name (from its manifest, or its file or folder name) is not a valid
  /// name: 1 to 64 ASCII letters, digits, `_`, `-` or `.`. A name labels the plugin's
  /// output and is its panel's id, so it may hold no control character, bracket or `/`.
  case badName(String)
  /// The folder given to ``PluginHost/loadAll(in:)`` does not exist, is not a folder, or
  /// cannot be read; `reason` is the system's word for it.
  case unreadableFolder(path: String, reason: String)
  /// The plugin could not be set up for a reason that is not its manifest's (its sandbox
  /// could not be made, or the app's components were refused).
  case cannotLoad(plugin: String, reason: String)
  /// The plugin's panel was reset, and starting it again from its files failed: it is
  /// unloaded (its files were removed or broken since it loaded, say).
  case cannotRestart(plugin: String, reason: String)
  /// A hot reload of the plugin (``PluginHost/hotReload(_:)``) failed: its new files could
  /// not be loaded, or their main chunk failed before its first wait (the Lua error, as
  /// `reason`). The version loaded at `loadedAt` (a local time, `HH:MM:SS`) keeps running;
  /// the error shows on its panel.
  case reloadFailed(plugin: String, reason: String, loadedAt: String)

  /// A readable explanation.
  public var description: String {
    switch self {
    case .notAPlugin(let path): "\(path) is not a plugin (a .lua file, or a folder with init.lua)"
    case .badManifest(let plugin, let reason): "plugin \(plugin): bad manifest.lua: \(reason)"
    case .capabilitiesNotAllowed(let plugin, let capabilities):
      "plugin \(plugin) asks for \(capabilities.joined(separator: ", ")), which the host has not allowed"
    case .unknownCapability(let plugin, let capability, let known):
      "plugin \(plugin) asks for an unknown capability '\(capability)' (known: \(known.joined(separator: ", ")))"
    case .duplicateName(let name): "a plugin named \(name) is already loaded"
    case .unknownPlugin(let name): "no plugin named \(name) is loaded"
    case .unreadableFolder(let path, let reason):
      "cannot read the plugins folder \(path): \(reason)"
    case .cannotLoad(let plugin, let reason): "plugin \(plugin) could not be loaded: \(reason)"
    case .cannotRestart(let plugin, let reason):
      "plugin \(plugin) could not be restarted, and is unloaded: \(reason)"
    case .reloadFailed(_, let reason, let loadedAt):
      "reload failed: \(reason); still running the version loaded at \(loadedAt)"
    case .badName(let name):
      "bad plugin name '\(name.visibleControls(keepingNewlines: false))' (1 to 64 letters, digits, '_', '-' or '.', not all dots)"
    }
  }
}
