import Lua
import LuaHost
import Synchronization
import TestSupport
import Testing
import ViewTree

@Suite(.timeLimit(.minutes(30))) struct HostModuleTests {
  let root = View.window(id: "root")
  let container = View.stack(id: "plugins")
  let recorder = Recorder()

  init() throws {
    try root.add(container)
    root.environment.alertPresenter = recorder
  }

  /// A `tasks` module (capability `tasks`) and a `clock` module every plugin gets.
  func host(allowing allowed: Set<PluginCapability>) throws -> PluginHost {
    let tasks = try HostModule("tasks", capability: "tasks") { lua in
      let module = try lua.makeTable()
      try module.set("count", .function(lua.function { () in 3 }))
      return .table(module)
    }
    let clock = try HostModule("clock") { _ in .string("tick") }
    return PluginHost(
      container: container, allowed: allowed, components: [], modules: [tasks, clock]
    ) { _ in }
  }

  func plugin(_ source: String, capabilities: [String]) throws -> String {
    let list = capabilities.map { "'\($0)'" }.joined(separator: ", ")
    return try Luahost.temporaryFolder([
      "p/manifest.lua": "return { name = 'p', capabilities = { \(list) } }",
      "p/init.lua": source,
    ]) + "/p"
  }

  @Test func aGrantedPluginRequiresTheModule() throws {
    let host = try host(allowing: ["tasks"])
    let plugin = try host.load(
      path: plugin("local t = require 'tasks'; n = t.count()", capabilities: ["tasks"]))
    #expect(plugin.run { try $0.run("return n, require 'clock'") } == [3, "tick"])
    #expect(recorder.presented.isEmpty)
  }

  @Test func aPluginThatDidNotAskIsToldWhichCapabilityItNeeds() throws {
    let host = try host(allowing: ["tasks"])
    _ = try host.load(path: plugin("require 'tasks'", capabilities: []))
    let message = try #require(recorder.presented.first?.alert.message)
    #expect(message.contains("module 'tasks' needs the 'tasks' capability"), "\(message)")
    #expect(recorder.presented.first?.boundary == "p")
  }

  @Test func unknownAndRefusedCapabilitiesStopTheLoad() throws {
    let strict = try host(allowing: [])
    #expect(throws: PluginError.capabilitiesNotAllowed(plugin: "p", capabilities: ["tasks"])) {
      try strict.load(path: plugin("", capabilities: ["tasks"]))
    }
    #expect(
      throws: PluginError.unknownCapability(
        plugin: "p", capability: "net", known: ["debug", "io", "os", "package", "tasks"])
    ) {
      try strict.load(path: plugin("", capabilities: ["net"]))
    }
    #expect(strict.plugins.isEmpty && container.children.isEmpty)
  }

  @Test func aLibraryCapabilityStillGrantsTheLibrary() throws {
    let host = try host(allowing: [.os])
    let plugin = try host.load(path: plugin("", capabilities: ["os"]))
    #expect(plugin.run { try $0.run("return type(os.getenv)") } == ["function"])
  }
}
