import Lua
import ViewTree

extension PluginHost {
  /// The editor definitions and linter configs of what this host's plugins see
  /// (``LuaDefinitions``): `ui` with the host's ``components``, `timer`, the view and
  /// alert classes, and the host's ``modules``, read from a plugin's sandbox made for the
  /// purpose (under ``limits``, every module granted) and closed again. No plugin is
  /// loaded or touched.
  /// - Parameter generator: who writes the files, for their header.
  /// - Throws: `LuaError` when the sandbox cannot be made, a module fails to open, or a
  ///   component is refused.
  public func definitions(generator: String = "LuaHost") throws -> LuaDefinitions {
    var sandbox = limits
    sandbox.capabilities = []
    sandbox.moduleDirectory = nil
    sandbox.output = { _ in }
    let lua = try LuaState(sandbox: sandbox)
    defer { lua.close() }
    let window = View.window(id: "definitions")
    let panel = View.boundary(id: "plugin")
    _ = try View.treeLock.withLock { try window.add(panel) }
    let tree = try ScriptedTree(lua: lua, root: panel, components: components)
    try tree.withState { lua in
      try View.treeLock.withLock {
        for module in modules {
          try module.install(in: lua, granted: true, plugin: "definitions")
        }
      }
    }
    return try withExtendedLifetime(window) {
      try LuaDefinitions(tree: tree, modules: modules, generator: generator)
    }
  }
}
