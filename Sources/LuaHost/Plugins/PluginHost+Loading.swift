import Lua
import ViewTree

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A plugin built in its own sandbox but not yet registered nor started: what
/// ``PluginHost/load(path:at:policy:)`` and a hot reload share.
struct MadePlugin {
  let plugin: Plugin
  /// The file its main chunk is read from.
  let entry: String
  let tree: ScriptedTree
}

// MARK: - Loading in steps

extension PluginHost {
  /// Reads `path`'s manifest, checks it against the policy, and builds the plugin in a fresh
  /// sandbox with a panel that is not in the tree yet. Nothing of the plugin has run.
  /// - Throws: as ``load(path:at:policy:)``, except that a name already taken is checked
  ///   only when `checkingName` (a hot reload builds the next version of a loaded plugin).
  func make(path: String, policy: PluginPolicy?, checkingName: Bool = true) throws
    -> MadePlugin
  {
    let isFolder = Self.isDirectory(path)
    let entry = isFolder ? path + "/init.lua" : path
    guard isFolder ? Self.isFile(entry) : path.hasSuffix(".lua") && Self.isFile(path) else {
      throw PluginError.notAPlugin(path: path)
    }
    let baseName = String(path.split(separator: "/").last ?? "plugin")
    let defaultName = baseName.hasSuffix(".lua") ? String(baseName.dropLast(4)) : baseName
    var manifest = PluginManifest(name: defaultName)
    if isFolder,
      let source = try? LuaState.readFile(
        path + "/manifest.lua", maxSize: 1 << 20, regularFileOnly: true)
    {
      manifest = try PluginManifest(
        source: String(decoding: source, as: UTF8.self), defaultName: defaultName)
    }
    // A default name (the file's or folder's) is checked as a manifest's is.
    guard PluginManifest.isValidName(manifest.name) else {
      throw PluginError.badName(manifest.name)
    }
    let settings = registry.withLock { $0 }
    let policy = policy ?? settings.policy(manifest)
    let allowed = policy.allowed ?? settings.allowed
    let known = knownCapabilities
    if let unknown = manifest.capabilities.subtracting(known).sorted().first {
      throw PluginError.unknownCapability(
        plugin: manifest.name, capability: unknown.rawValue, known: known.map(\.rawValue).sorted())
    }
    let refused = manifest.capabilities.subtracting(allowed)
    guard refused.isEmpty else {
      throw PluginError.capabilitiesNotAllowed(
        plugin: manifest.name, capabilities: refused.map(\.rawValue).sorted())
    }
    guard !checkingName || plugin(named: manifest.name) == nil else {
      throw PluginError.duplicateName(manifest.name)
    }

    var sandbox = policy.limits ?? settings.limits
    sandbox.capabilities = Set(manifest.capabilities.compactMap(\.library))
    sandbox.moduleDirectory = isFolder ? path : nil
    let label = manifest.name
    let output = settings.output
    sandbox.output = { text in Self.writeLabelled(text.bytes, label: label, to: output) }
    sandbox.warningOutput = sandbox.output  // labelled as `print` is
    let lua = try LuaState(sandbox: sandbox)
    lua.lock.name = "plugin '\(manifest.name)'"  // for a refused deadlock's message
    // Reset restarts the plugin (`restartAfterReset`): the closure finds it by identity,
    // so a stale alert cannot restart a newer instance of the same name.
    let restartee = WeakPlugin()
    let panelConfiguration = policy.boundary(for: manifest.name) { [weak self] _ in
      self?.restartAfterReset(restartee.plugin)
    }
    let panel = View.boundary(id: manifest.name, panelConfiguration)
    let tree = try ScriptedTree(lua: lua, root: panel, components: components)
    let plugin = Plugin(path: path, manifest: manifest, policy: policy, panel: panel, tree: tree)
    restartee.plugin = plugin
    return MadePlugin(plugin: plugin, entry: entry, tree: tree)
  }

  /// Lists `plugin` and places its panel at `index` (by default last).
  /// - Throws: ``PluginError/duplicateName(_:)`` (the plugin's state is then closed).
  func register(_ plugin: Plugin, at index: Int?) throws {
    // Registering and placing the panel happen together, so two threads loading plugins
    // with one name cannot both succeed. Lock order: the tree, then the registry (a Swift
    // action runs under the tree lock and may read `plugins`).
    let taken = try View.treeLock.withLock {
      try registry.withLock { registry -> Bool in
        guard !registry.plugins.contains(where: { $0.name == plugin.name }) else { return true }
        try insert(plugin.panel, at: index)
        if let index, index <= registry.plugins.count {
          registry.plugins.insert(plugin, at: index)
        } else {
          registry.plugins.append(plugin)
        }
        return false
      }
    }
    if taken {
      plugin.unload()
      throw PluginError.duplicateName(plugin.name)
    }
  }

  /// Installs the granted modules and runs the plugin's main chunk, with `previousState`
  /// (what its previous version's `on_unload` returned) as its `...`.
  /// - Returns: the error of the main chunk's first stretch (up to its first wait), or nil;
  ///   a later failure reaches the panel.
  func start(_ made: MadePlugin, previousState: PluginHandoff?) -> (any Error)? {
    let modules = modules
    let moduleLock = moduleLock
    let manifest = made.plugin.manifest
    return made.plugin.attempt { lua in
      try View.treeLock.withLock {
        // Every Swift function a module makes holds the host's module lock when called.
        try lua.withCallbackGate(moduleLock) {
          for module in modules {
            try module.install(
              in: lua, granted: module.capability.map(manifest.capabilities.contains) ?? true,
              plugin: manifest.name)
          }
        }
      }
      // As a coroutine: the main chunk may wait (timer.sleep, the host's async functions);
      // the rest then runs in the background, and its error reaches the panel.
      try made.tree.runAction(lua.load(file: made.entry), origin: made.plugin.panel) { tree, _ in
        try previousState.map { [try $0.value(in: tree.lua)] } ?? []
      }
    }
  }
}

/// A plugin held weakly, for its panel's reset closure (made before the plugin is).
final class WeakPlugin: @unchecked Sendable {
  // `@unchecked Sendable` is justified: `plugin` is set once, before the panel is placed in
  // the tree (so before any reset can read it), and only read afterwards.
  weak var plugin: Plugin?
}
