import Lua
import ViewTree

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Loads untrusted plugins into sandboxes, each with its own panel and error boundary
/// under `container`, and unloads or reloads them.
///
/// ```swift
/// let host = PluginHost(
///   container: window.find("plugins")!, allowed: ["tasks"],
///   components: [slider], modules: [tasksModule], output: { console.append($0) })
/// for case .failure(let error) in host.loadAll(in: pluginsFolder) { log(error) }
/// host.plugin(named: "stats")?.call("on_event", "refresh")
/// ```
///
/// Each plugin gets the built-in `ui` kinds, the host's ``components``, and those of the
/// host's ``modules`` it was granted.
///
/// A host may be used from any thread, and its plugins run at the same time on different
/// threads: each plugin's state is confined to that plugin's lock (see ``Plugin``), and
/// the shared tree to `View.treeLock`. Host code that touches the tree while plugins run
/// does so inside ``withTree(_:)``. Keep the container's ancestors alive while plugins run.
public final class PluginHost: @unchecked Sendable {
  // `@unchecked Sendable` is justified: `container` is touched only under `View.treeLock`;
  // `components` and `modules` never change, and their closures run holding the tree lock
  // (components) or the loading plugin's state lock and then the tree lock (`open`);
  // everything else that changes lives in `registry`, a mutex. The app's `policy` closure
  // runs on the loading thread, outside the mutex, as the init's doc says.
  struct Registry {
    var allowed: Set<PluginCapability>
    var limits: LuaSandbox
    var output: @Sendable (String) -> Void
    var policy: (PluginManifest) -> PluginPolicy
    var plugins: [Plugin] = []
  }

  /// The view that holds the plugins' panels (e.g. `root/plugins`).
  public let container: View
  /// The app-defined kinds of view every plugin's `ui` offers.
  public let components: [ScriptedComponent]
  /// The app's Lua modules, each granted to the plugins its capability allows.
  public let modules: [HostModule]
  let registry: LockedValue<Registry>
  /// Held by every call from a plugin into one of ``modules``' Swift functions: the app's
  /// module code runs one call at a time, whichever plugin's thread it is called on.
  let moduleLock: ReentrantLock = {
    let lock = ReentrantLock()
    lock.name = "the host's modules"
    return lock
  }()

  /// Capabilities the host consents to grant when a manifest asks for them.
  public var allowed: Set<PluginCapability> {
    get { registry.withLock { $0.allowed } }
    set { registry.withLock { $0.allowed = newValue } }
  }
  /// The limits each plugin runs under (capabilities, module folder and output are set per
  /// plugin).
  public var limits: LuaSandbox {
    get { registry.withLock { $0.limits } }
    set { registry.withLock { $0.limits = newValue } }
  }
  /// What the app decides for each plugin it loads from now on (its panel's Try again,
  /// Reset and reset keys, its limits and capabilities), from its manifest. A plugin keeps
  /// the policy it was loaded with across reloads.
  public var policy: (PluginManifest) -> PluginPolicy {
    get { registry.withLock { $0.policy } }
    set { registry.withLock { $0.policy = newValue } }
  }
  /// Where plugins' `print` and `warn` go, labelled with the plugin's name.
  public var output: @Sendable (String) -> Void {
    get { registry.withLock { $0.output } }
    set { registry.withLock { $0.output = newValue } }
  }
  /// The loaded plugins, in load order.
  public var plugins: [Plugin] { registry.withLock { $0.plugins } }

  /// Creates a host whose plugins' panels go under `container`.
  /// - Parameters:
  ///   - container: the view that holds the panels; keep its ancestors alive.
  ///   - allowed: what the host consents to grant when a manifest asks.
  ///   - limits: each plugin's memory, time and instruction limits.
  ///   - components: app-defined kinds of view, offered to every plugin.
  ///   - modules: the app's Lua modules, granted by capability.
  ///   - output: where the plugins' `print` lines go, each labelled `[name] `; by default
  ///     Swift's `print`.
  ///   - policy: the app's decision for each plugin (``PluginPolicy``), from its manifest;
  ///     by default `allowed` and `limits` for all, and a panel without retry or reset.
  ///     It runs on the thread that loads each plugin.
  public init(
    container: View, allowed: Set<PluginCapability> = [], limits: LuaSandbox = LuaSandbox(),
    components: [ScriptedComponent] = [], modules: [HostModule] = [],
    output: @escaping @Sendable (String) -> Void = { print($0) },
    policy: @escaping (PluginManifest) -> PluginPolicy = { _ in PluginPolicy() }
  ) {
    self.container = container
    self.components = components
    self.modules = modules
    registry = LockedValue(
      Registry(allowed: allowed, limits: limits, output: output, policy: policy))
  }

  /// Every capability a manifest may name: the libraries, and the modules' capabilities.
  public var knownCapabilities: Set<PluginCapability> {
    Set(LuaSandbox.Capability.allCases.map(PluginCapability.init)).union(
      modules.compactMap(\.capability))
  }

  /// Whether some plugin has work in flight, or a restart is under way (see ``idle()``).
  public var hasPendingWork: Bool {
    restarts.count > 0 || plugins.contains { $0.pendingWork.count > 0 }
  }

  /// Returns once no plugin has work in flight (handlers that wait, timers) and no
  /// restart after a Reset is under way, as node waits for its timers before it exits.
  /// Work started meanwhile is waited for too.
  public func idle() async {
    while true {
      await restarts.idle()
      let busy = plugins.filter { $0.pendingWork.count > 0 }
      if busy.isEmpty && restarts.count == 0 { return }
      for plugin in busy { await plugin.pendingWork.idle() }
    }
  }

  /// The plugin named `name`, if loaded.
  public func plugin(named name: String) -> Plugin? {
    registry.withLock { $0.plugins.first { $0.name == name } }
  }

  /// Runs `body` with the container, holding the tree lock: the way for host code to read
  /// or change the app tree while plugins may be running on other threads.
  public func withTree<T>(_ body: (View) throws -> T) rethrows -> T {
    try View.treeLock.withLock { try body(container) }
  }

  /// Loads every plugin in `directory` (`*.lua` files and folders with `init.lua`), in name
  /// order. A plugin that cannot be loaded is reported and skipped; one whose code fails
  /// while loading stays loaded with an alert on its panel. A folder that does not exist
  /// or cannot be read gives one failure, ``PluginError/unreadableFolder(path:reason:)``.
  public func loadAll(in directory: String) -> [Result<Plugin, PluginError>] {
    guard let entries = Self.readableEntries(of: directory) else {
      let reason = errno == ENOTDIR ? "not a folder" : String(cString: strerror(errno))
      return [.failure(.unreadableFolder(path: directory, reason: reason))]
    }
    return entries.compactMap { entry -> Result<Plugin, PluginError>? in
      let path = directory + "/" + entry
      guard entry.hasSuffix(".lua") || Self.isDirectory(path) else { return nil }
      do {
        return .success(try load(path: path))
      } catch let error as PluginError {
        return .failure(error)
      } catch {
        return .failure(.cannotLoad(plugin: entry, reason: "\(error)"))
      }
    }
  }

  /// Loads one plugin and runs its code inside its panel's boundary.
  /// - Parameters:
  ///   - path: a `.lua` file, or a folder with `init.lua` (and perhaps `manifest.lua`).
  ///   - index: where the panel goes among the container's children; by default last.
  ///   - policy: what the app decides for this plugin; by default the host's ``policy``
  ///     for its manifest. The plugin keeps it across reloads.
  /// - Throws: ``PluginError`` when the path is not a plugin, its manifest is bad, it asks
  ///   for capabilities the policy does not allow, or its name is taken; `LuaError` when a
  ///   sandbox cannot be created.
  @discardableResult
  public func load(path: String, at index: Int? = nil, policy: PluginPolicy? = nil) throws
    -> Plugin
  {
    let made = try make(path: path, policy: policy)
    try register(made.plugin, at: index)
    if let error = start(made, previousState: nil) { made.plugin.show(loadFailure: error) }
    return made.plugin
  }

  /// Unloads a plugin: closes its state and removes its panel.
  /// - Throws: ``PluginError/unknownPlugin(_:)``.
  public func unload(_ name: String) throws {
    try remove(name).unload()
  }

  /// Unloads and loads a plugin again from its path, in the same place, under the policy
  /// it was loaded with.
  /// - Throws: as ``unload(_:)`` and ``load(path:at:policy:)``.
  @discardableResult
  public func reload(_ name: String) throws -> Plugin {
    let old = try registry.withLock { registry in
      guard let plugin = registry.plugins.first(where: { $0.name == name }) else {
        throw PluginError.unknownPlugin(name)
      }
      return plugin
    }
    guard let new = try replace(old) else { throw PluginError.unknownPlugin(name) }
    return new
  }

  /// Unloads `old` and loads its files again in its place, under its policy; nil if `old`
  /// is not loaded any more (another thread unloaded or replaced it).
  func replace(_ old: Plugin) throws -> Plugin? {
    let panelIndex = withTree { container in container.children.firstIndex { $0 === old.panel } }
    let index = registry.withLock { registry -> Int? in
      guard let index = registry.plugins.firstIndex(where: { $0 === old }) else { return nil }
      registry.plugins.remove(at: index)
      return index
    }
    guard let index else { return nil }
    old.unload()
    return try load(
      path: old.path, at: panelIndex.map { min($0, index) } ?? index, policy: old.policy)
  }

  /// Work the host runs itself: restarts after a Reset. ``idle()`` waits for it.
  private let restarts = PendingWork()

  /// What a Reset of `plugin`'s panel does: restarts the plugin from its files, in a task,
  /// once the reset has returned (the reset may come from code that holds the tree lock
  /// in ways a restart cannot wait under, a `TreeLocked` value's, say). Nothing happens if
  /// the plugin's own code asked for it (its state is busy on this thread: a plugin that
  /// restarted itself could do so for ever), or if it is no longer the loaded instance.
  /// A restart that fails is routed from the container as
  /// ``PluginError/cannotRestart(plugin:reason:)``.
  func restartAfterReset(_ plugin: Plugin?) {
    guard let plugin, plugin.isLoaded, !plugin.isBusyOnThisThread else { return }
    restarts.begin()
    // Off the cooperative pool (on the old state's executor): the restart waits for the
    // old state's lock, and runs the new one's main chunk.
    Task.detached(executorPreference: plugin.executor) { [self, restarts] in
      defer { restarts.end() }
      do {
        _ = try replace(plugin)
      } catch {
        let failure = PluginError.cannotRestart(plugin: plugin.name, reason: "\(error)")
        withTree { container in _ = container.environment.errorHandler.handle(failure) }
      }
    }
  }

  /// Takes the plugin named `name` off the list.
  private func remove(_ name: String) throws -> Plugin {
    try registry.withLock { registry in
      guard let index = registry.plugins.firstIndex(where: { $0.name == name }) else {
        throw PluginError.unknownPlugin(name)
      }
      return registry.plugins.remove(at: index)
    }
  }

  func insert(_ panel: View, at index: Int?) throws {
    if let index, index <= container.children.count {
      try container.insert(panel, at: index)
    } else {
      try container.add(panel)
    }
  }

  package static func entries(of directory: String) -> [String] {
    readableEntries(of: directory) ?? []
  }

  /// The names in `directory` (hidden ones left out), sorted; nil, with `errno` set, when
  /// it cannot be opened.
  static func readableEntries(of directory: String) -> [String]? {
    guard let handle = opendir(directory) else { return nil }
    defer { closedir(handle) }
    var names: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      if !name.hasPrefix(".") { names.append(name) }
    }
    return names.sorted()
  }

  package static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }

  package static func isFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
  }
}
