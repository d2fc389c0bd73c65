import Lua
import LuaHost
import ViewTree

/// A fresh sandbox and app tree for one test file run: the demo tree (or the plugins under
/// test), `ui`, and the test API. A busted spec's environment is trusted (the full standard
/// library, for busted itself); the plugins it loads stay sandboxed.
final class TestEnvironment {
  let tree: ScriptedTree
  let plugins: PluginHost?
  var lua: LuaState { tree.lua }
  var root: View { tree.root }

  init(options: TestRunner.Options, trusted: Bool = false) throws {
    var limits = options.limits
    limits.timeout = options.timeout
    let root = DemoApp.makeWindow()
    let lua: LuaState
    if trusted {
      // Trusted test code: no per-call deadline (busted runs a whole file in one call).
      lua = try LuaState(libraries: .all)
      var trustedLimits = options.limits
      trustedLimits.timeout = nil
      trustedLimits.apply(to: lua)
    } else {
      var sandbox = limits.sandbox(granting: true)
      if options.printsToStandardError {
        sandbox.output = { StandardStreams.error(String(decoding: $0.bytes, as: UTF8.self) + "\n") }
      }
      lua = try LuaState(sandbox: sandbox)
    }
    tree = try ScriptedTree(lua: lua, root: root)
    if trusted || options.pluginDirectory != nil, let container = root.find("plugins") {
      let toStandardError = options.printsToStandardError
      let host = limits.pluginHost(
        container: container,
        output: {
          toStandardError ? StandardStreams.error($0 + "\n") : StandardStreams.out($0 + "\n")
        })
      // A plugin that cannot load is reported (once per run), never dropped without a word.
      for case .failure(let error) in options.pluginDirectory.map(host.loadAll(in:)) ?? [] {
        Self.reportOnce("luahost test: a plugin was not loaded: \(error)")
      }
      plugins = host
    } else {
      plugins = nil
    }
  }

  private static let reported = LockedValue<Set<String>>([])

  /// Writes `message` on stderr, unless this run wrote it already (each test makes its own
  /// environment, so the same failure would come once per test).
  static func reportOnce(_ message: String) {
    guard reported.withLock({ $0.insert(message).inserted }) else { return }
    StandardStreams.error(message.visibleControls() + "\n")
  }

  deinit {
    for plugin in plugins?.plugins ?? [] { try? plugins?.unload(plugin.name) }
    lua.close()
  }

  /// Installs the test API and runs the test file; returns the registered tests.
  func load(file: String) throws -> LuaTable {
    let registry = try LuaTable(luaValue: installTestAPI())
    try lua.run(file: file)
    try registry.rawSet("closed", true)  // no test registers from inside another
    return registry
  }

  /// Installs the test API (`test`, `describe`, `expect`, `compile`); returns the table
  /// the tests register in.
  func installTestAPI() throws -> LuaValue {
    let prelude = try lua.load(TestPrelude.source, name: "=luahost:test")
    return try prelude.call(.table(makeHostHelpers())).first ?? .nil
  }

  /// What a helper raises once its test has ended and its environment is gone: a timer
  /// or other async work of the test's may still call one.
  static let ended = LuaError(kind: .runtime, message: "the test has ended")

  /// The helpers the test API is built on (alerts, settling, plugins), shared by the
  /// `test()` prelude and the busted driver.
  func makeHostHelpers() throws -> LuaTable {
    let helpers = try lua.makeTable()
    try helpers.set(
      "clear_alerts",
      .function(
        lua.function { [weak self] _ in
          guard let self else { throw Self.ended }
          _ = root.find { view in
            view.dismissAll()
            return false
          }
          return []
        }))
    try helpers.set(
      "alerts",
      .function(
        lua.function { [weak self] _ in
          guard let self else { throw Self.ended }
          var alerts: [LuaValue] = []
          _ = try root.find { view in
            for alert in view.alerts {
              let table = try tree.table(alert, boundary: view, pressableWhenGone: true)
              if case .table(let t) = table { try t.set("boundary", .string(LuaString(view.id))) }
              alerts.append(table)
            }
            return false
          }
          return [try lua.value(alerts)]
        }))
    try helpers.set(
      "settle",
      .function(
        lua.function { [weak self] (arguments: [LuaValue]) async throws -> [LuaValue] in
          // Waits until an alert is up (when asked for one), or no work is in flight, or
          // `within` seconds passed: async work's alerts come when its error happens.
          let seconds = try Double(luaValue: arguments.first ?? 2)
          let wantsAlert = arguments.count > 1 && arguments[1] == .boolean(true)
          guard let within = Duration.limit(seconds: seconds) else {
            throw LuaError(kind: .runtime, message: "bad time limit \(seconds)")
          }
          let deadline = ContinuousClock.now + within
          while ContinuousClock.now < deadline {
            let busy = View.treeLock.withLock { () -> Bool in
              // Weak, read under the lock each time: the runner may end the test (and
              // free its environment) while this waits.
              guard let self else { return false }
              if wantsAlert, self.root.find(where: { $0.alert != nil }) != nil { return false }
              return self.tree.pendingWork.count > 0
                || (self.plugins?.plugins.contains { $0.pendingWork.count > 0 } ?? false)
            }
            if !busy { break }
            try await Task.sleep(for: .milliseconds(1))
          }
          return []
        }))
    try helpers.set(
      "load_plugin",
      .function(
        lua.function { [weak self] arguments in
          guard let self else { throw Self.ended }
          let path = try String(luaValue: arguments.first ?? .nil)
          guard let plugins else {
            throw LuaError(kind: .runtime, message: "this tree has no plugins panel")
          }
          do {
            return [.string(LuaString(try plugins.load(path: path).name))]
          } catch let error as PluginError {
            throw LuaError(kind: .runtime, message: "cannot load plugin \(path): \(error)")
          }
        }))
    try helpers.set(
      "reset",
      .function(
        lua.function { [weak self] _ in
          guard let self else { throw Self.ended }
          for plugin in plugins?.plugins ?? [] { try plugins?.unload(plugin.name) }
          _ = root.find { view in
            view.dismissAll()
            return false
          }
          return []
        }))
    try helpers.set(
      "is_stop",
      .function(
        lua.function { arguments in [.boolean(LuaState.isStopValue(arguments.first ?? .nil))] }))
    try helpers.set(
      "protected",
      .function(
        lua.function { arguments in
          let function = try LuaFunction(luaValue: arguments.first ?? .nil)
          let seconds = try Double(luaValue: arguments.count > 1 ? arguments[1] : 1)
          guard let within = Duration.limit(seconds: seconds) else {
            throw LuaError(
              kind: .runtime,
              message: "bad time limit \(seconds) (seconds above 0, at most a year expected)")
          }
          do {
            try function.call(arguments: [], timeout: within)
            return [.nil]
          } catch let error as LuaError {
            return [.string(LuaString(error.kind.testName)), .string(LuaString(error.message))]
          }
        }))
    try helpers.set(
      "compile",
      .function(
        lua.function { [weak self] arguments in
          guard let self else { throw Self.ended }
          let source = try String(luaValue: arguments.first ?? .nil)
          let name = try String?(luaValue: arguments.count > 1 ? arguments[1] : .nil) ?? "=compiled"
          return [.function(try lua.load(source, name: name))]
        }))
    return helpers
  }
}
