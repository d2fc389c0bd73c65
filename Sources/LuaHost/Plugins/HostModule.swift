import Lua

/// A Lua module an app gives its plugins: `local tasks = require "tasks"`.
///
/// ```swift
/// host.modules.append(try HostModule("tasks", capability: "tasks") { lua in
///   let module = try lua.makeTable()
///   try module.set("count", .function(lua.function { () in store.count }))
///   return .table(module)
/// })
/// ```
///
/// A module without a capability goes to every plugin. One with a capability goes only
/// to plugins whose manifest asks for it (`capabilities = { "tasks" }`), and only when the
/// host allows it (``PluginHost/allowed``); for the others, `require` raises an error that
/// names the capability. `open` runs once per plugin, on the plugin's state, when the
/// plugin loads.
///
/// Threads: plugins run on their own threads, but the Swift functions a module makes run
/// one call at a time across all the host's plugins (they hold the host's module lock), so
/// module code may share plain mutable state such as a counter. The awaited part of an
/// `async` function runs in the calling plugin's task, concurrently with others: what it
/// shares must be `Sendable` (an actor, a lock). A module function that calls into another
/// plugin whose code is calling a module right now from another thread would deadlock; that
/// call fails at once with an error naming both instead (see `LuaState.withLock`).
public struct HostModule {
  /// The name `require` takes.
  public let name: String
  /// What a plugin must be granted to get the module; nil: every plugin gets it.
  public let capability: PluginCapability?
  let open: (LuaState) throws -> LuaValue
  /// Types and summaries for editors, set by `describe` (``LuaDefinitions``).
  var documentation = APIDocumentation()

  /// A module named `name` whose value `open` makes in each plugin's state.
  /// - Throws: a `usage` `LuaError` when `name` is not a module name (1 to 64 letters,
  ///   digits, `_` and inner `.`) or is a standard library's (`string`, `package`…), which
  ///   the module would hide: refused here, where the module is made.
  public init(
    _ name: String, capability: PluginCapability? = nil,
    open: @escaping (LuaState) throws -> LuaValue
  ) throws {
    let isName =
      (1...64).contains(name.utf8.count) && name.first != "." && name.last != "."
      && !name.contains("..")
      && name.split(separator: ".").allSatisfy { ScriptedComponent.isName(String($0)) }
    guard isName else {
      throw LuaError(
        kind: .usage,
        message: "module '\(name)': a name is 1 to 64 letters, digits, '_' and inner '.'")
    }
    guard !Self.standardNames.contains(name) else {
      throw LuaError(kind: .usage, message: "module '\(name)': a standard library has that name")
    }
    self.name = name
    self.capability = capability
    self.open = open
  }

  /// The standard libraries' names, which a module may not take.
  static let standardNames: Set<String> = [
    "_G", "coroutine", "debug", "io", "math", "os", "package", "string", "table", "utf8",
  ]

  /// Puts the module into `lua`'s `package.loaded`, or, when it is not `granted`, a
  /// `package.preload` entry that says which capability it needs.
  func install(in lua: LuaState, granted: Bool, plugin: String) throws {
    guard case .table(let package) = try lua.globals().rawGet("package") else { return }
    if granted {
      guard case .table(let loaded) = try package.rawGet("loaded") else { return }
      try loaded.rawSet(.string(LuaString(name)), open(lua))
      return
    }
    guard case .table(let preload) = try package.rawGet("preload") else { return }
    let message =
      "module '\(name)' needs the '\(capability?.rawValue ?? "")' capability, which plugin \(plugin) was not granted"
    try preload.rawSet(
      .string(LuaString(name)),
      .function(lua.function { _ in throw LuaError(kind: .runtime, message: message) }))
  }
}
