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
/// A host, its tree and its plugins' states are confined to one thread: the tree is not
/// thread-safe, and a plugin's actions run on the thread that taps them.
public final class PluginHost {
  /// The view that holds the plugins' panels (e.g. `root/plugins`).
  public let container: View
  /// Capabilities the host consents to grant when a manifest asks for them.
  public var allowed: Set<LuaSandbox.Capability>
  /// The limits each plugin runs under (capabilities, module folder and output are set per
  /// plugin).
  public var limits: LuaSandbox
  /// Where plugins' `print` and `warn` go, labelled with the plugin's name.
  public var output: @Sendable (String) -> Void
  /// The loaded plugins, in load order.
  public private(set) var plugins: [Plugin] = []

  /// Creates a host whose plugins' panels go under `container`.
  public init(
    container: View, allowed: Set<LuaSandbox.Capability> = [], limits: LuaSandbox = LuaSandbox(),
    output: @escaping @Sendable (String) -> Void = { StandardStreams.out($0 + "\n") }
  ) {
    self.container = container
    self.allowed = allowed
    self.limits = limits
    self.output = output
  }

  /// The plugin named `name`, if loaded.
  public func plugin(named name: String) -> Plugin? { plugins.first { $0.name == name } }

  /// Loads every plugin in `directory` (`*.lua` files and folders with `init.lua`), in name
  /// order. A plugin that cannot be loaded is reported and skipped; one whose code fails
  /// while loading stays loaded with an alert on its panel.
  public func loadAll(in directory: String) -> [Result<Plugin, PluginError>] {
    Self.entries(of: directory).compactMap { entry -> Result<Plugin, PluginError>? in
      let path = directory + "/" + entry
      guard entry.hasSuffix(".lua") || Self.isDirectory(path) else { return nil }
      do {
        return .success(try load(path: path))
      } catch let error as PluginError {
        return .failure(error)
      } catch {
        return .failure(.badManifest(plugin: entry, reason: "\(error)"))
      }
    }
  }

  /// Loads one plugin and runs its code inside its panel's boundary.
  /// - Throws: ``PluginError`` when the path is not a plugin, its manifest is bad, it asks
  ///   for capabilities the host does not allow, or its name is taken; ``LuaError`` when a
  ///   sandbox cannot be created.
  @discardableResult
  public func load(path: String, at index: Int? = nil) throws -> Plugin {
    let isFolder = Self.isDirectory(path)
    let entry = isFolder ? path + "/init.lua" : path
    guard isFolder ? Self.isFile(entry) : path.hasSuffix(".lua") && Self.isFile(path) else {
      throw PluginError.notAPlugin(path: path)
    }
    let baseName = String(path.split(separator: "/").last ?? "plugin")
    let defaultName = baseName.hasSuffix(".lua") ? String(baseName.dropLast(4)) : baseName
    var manifest = PluginManifest(name: defaultName)
    if isFolder, let source = try? LuaState.readFile(path + "/manifest.lua") {
      manifest = try PluginManifest(
        source: String(decoding: source, as: UTF8.self), defaultName: defaultName)
    }
    let refused = manifest.capabilities.subtracting(allowed)
    guard refused.isEmpty else {
      throw PluginError.capabilitiesNotAllowed(
        plugin: manifest.name, capabilities: refused.map(\.rawValue).sorted())
    }
    guard plugin(named: manifest.name) == nil else {
      throw PluginError.duplicateName(manifest.name)
    }

    var sandbox = limits
    sandbox.capabilities = manifest.capabilities
    sandbox.moduleDirectory = isFolder ? path : nil
    let label = manifest.name
    let output = self.output
    sandbox.output = { output("[\(label)] \($0)") }
    let lua = try LuaState(sandbox: sandbox)
    let panel = View.boundary(
      id: manifest.name, BoundaryConfiguration(title: "Error in plugin \(manifest.name)"))
    try insert(panel, at: index)
    let tree = try ScriptedTree(lua: lua, root: panel)
    let plugin = Plugin(path: path, manifest: manifest, panel: panel, tree: tree)
    if let index, index <= plugins.count {
      plugins.insert(plugin, at: index)
    } else {
      plugins.append(plugin)
    }
    plugin.run { try $0.run(file: entry) }
    return plugin
  }

  /// Unloads a plugin: closes its state and removes its panel.
  /// - Throws: ``PluginError/unknownPlugin(_:)``.
  public func unload(_ name: String) throws {
    guard let index = plugins.firstIndex(where: { $0.name == name }) else {
      throw PluginError.unknownPlugin(name)
    }
    plugins.remove(at: index).unload()
  }

  /// Unloads and loads a plugin again from its path, in the same place.
  /// - Throws: as ``unload(_:)`` and ``load(path:at:)``.
  @discardableResult
  public func reload(_ name: String) throws -> Plugin {
    guard let index = plugins.firstIndex(where: { $0.name == name }) else {
      throw PluginError.unknownPlugin(name)
    }
    let old = plugins[index]
    let panelIndex = container.children.firstIndex { $0 === old.panel }
    try unload(name)
    return try load(path: old.path, at: panelIndex.map { min($0, index) } ?? index)
  }

  private func insert(_ panel: View, at index: Int?) throws {
    if let index, index <= container.children.count {
      try container.insert(panel, at: index)
    } else {
      try container.add(panel)
    }
  }

  static func entries(of directory: String) -> [String] {
    guard let handle = opendir(directory) else { return [] }
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

  static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }

  static func isFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
  }
}
