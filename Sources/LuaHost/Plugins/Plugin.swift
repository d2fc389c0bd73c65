import Lua
import ViewTree

/// A loaded plugin: its own sandboxed `lua_State`, its own panel in the app tree, wrapped
/// in its own error boundary, so its errors raise alerts attributed to it and nothing else.
public final class Plugin {
  /// Where the plugin came from: a `.lua` file, or a folder with `init.lua`.
  public let path: String
  /// What the plugin says about itself (or defaults for a plain file).
  public let manifest: PluginManifest
  /// The plugin's panel: a boundary whose id is the plugin's name. Inside the plugin,
  /// `ui.root` is this panel and `ui.find` searches only below it.
  public let panel: View
  /// The plugin's tree bridge and state; nil once unloaded.
  public private(set) var tree: ScriptedTree?

  /// The plugin's name.
  public var name: String { manifest.name }
  /// Whether the plugin is loaded.
  public var isLoaded: Bool { tree != nil }
  /// The plugin's state, while loaded.
  public var lua: LuaState? { tree?.lua }

  init(path: String, manifest: PluginManifest, panel: View, tree: ScriptedTree) {
    self.path = path
    self.manifest = manifest
    self.panel = panel
    self.tree = tree
  }

  /// Runs `body` with the plugin's state through the panel's error handler: any failure
  /// (a script error, a timeout, running out of memory) becomes an alert on the panel.
  /// - Returns: `body`'s result, or nil if it failed or the plugin is unloaded.
  @discardableResult
  public func run<T>(_ body: (LuaState) throws -> T) -> T? {
    guard let lua else { return nil }
    return panel.environment.errorHandler { try body(lua) }
  }

  /// Calls the global function `name` of the plugin (an event handler such as `on_event`),
  /// if it defines one; failures become alerts on the panel.
  /// - Returns: the function's results, or nil if it is missing or failed.
  @discardableResult
  public func call(_ name: String, _ arguments: LuaValue...) -> [LuaValue]? {
    run { lua -> [LuaValue]? in
      guard case .function(let function) = try lua.globals().rawGet(.string(LuaString(name))) else {
        return nil
      }
      return try function.call(arguments: arguments)
    } ?? nil
  }

  /// Closes the state (giving its memory back) and removes the panel from the tree.
  func unload() {
    tree?.lua.close()
    tree = nil
    panel.removeFromParent()
  }
}
