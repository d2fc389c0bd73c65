import Lua
import LuaHost
import Synchronization
import TestSupport
import Testing
import ViewTree

@Suite(.timeLimit(.minutes(30))) struct PluginTests {
  let root = View.window(id: "root")
  let container = View.stack(id: "plugins")
  let recorder = Recorder()
  let lines = Lines()
  let host: PluginHost

  final class Lines: Sendable {
    let value = LockedValue<[String]>([])
    var all: [String] { value.withLock { $0 } }
  }

  init() throws {
    try root.add(container)
    root.environment.alertPresenter = recorder
    var limits = LuaSandbox()
    // A bound on work that must finish, not a stop: a loaded machine took more than 200 ms
    // to run a one-line tap once (three loaded fresh-clone runs in a row). The one test that
    // needs a stop gives the spinner a short deadline of its own.
    limits.timeout = .seconds(60)
    limits.memoryLimit = 4 << 20
    let lines = self.lines
    host = PluginHost(container: container, limits: limits) { line in
      lines.value.withLock { $0.append(line) }
    }
  }

  func loadFixtures() -> [Result<Plugin, PluginError>] {
    host.loadAll(in: Luahost.fixture("plugins"))
  }

  /// A folder that is not there is an error, not an empty success.
  @Test func loadingAFolderThatIsNotThereFails() throws {
    let missing = host.loadAll(in: "/nonexistent/plugins")
    let descriptions = missing.map { result in
      if case .failure(let error) = result { "\(error)" } else { "a plugin" }
    }
    #expect(
      descriptions == [
        "cannot read the plugins folder /nonexistent/plugins: No such file or directory"
      ])
    let file = try Luahost.temporaryFile("return 1")
    guard case .failure(.unreadableFolder(file, "not a folder")) = host.loadAll(in: file).first
    else {
      Issue.record("\(host.loadAll(in: file))")
      return
    }
    #expect(host.plugins.isEmpty)
  }

  /// A component the tree refuses fails every plugin's load with its own reason, never
  /// with one about a manifest the plugin may not even have.
  @Test func aRefusedComponentIsNotCalledABadManifest() throws {
    var clash = try ScriptedComponent("knob")
    clash.property("parent", get: { _ in .nil })
    let strict = PluginHost(container: container, components: [clash]) { _ in }
    let results = strict.loadAll(in: Luahost.fixture("plugins"))
    #expect(results.count >= 4)
    for result in results {
      if case .failure(.capabilitiesNotAllowed) = result { continue }  // refused before
      guard case .failure(let error) = result, case .cannotLoad = error else {
        Issue.record("\(result)")
        continue
      }
      #expect("\(error)".contains("component 'knob': 'parent' is a field of every view"))
      #expect(!"\(error)".contains("manifest"))
    }
  }

  @Test func eachPluginGetsItsOwnPanelAndBoundary() throws {
    let results = loadFixtures()
    #expect(host.plugins.map(\.name) == ["broken", "clock", "greeter", "spinner"])
    #expect(container.children.map(\.id) == ["broken", "clock", "greeter", "spinner"])
    let failures = results.compactMap { if case .failure(let e) = $0 { e } else { nil } }
    #expect(failures == [.capabilitiesNotAllowed(plugin: "wants_io", capabilities: ["io"])])
    // The broken plugin's load error is its own alert; the others are untouched.
    #expect(recorder.presented.map(\.boundary) == ["broken"])
    #expect(recorder.presented[0].alert.title == "Error in plugin broken")
    #expect(
      recorder.presented[0].alert.message.hasSuffix("broken.lua:4: broken plugin could not start"))
    #expect(root.find("status")?.text == "about to fail")
    #expect(lines.all.contains("[clock] clock ready\tnil\tfunction"))
    #expect(lines.all.contains("[greeter] escape blocked:\ttrue"))
    #expect(root.find("greeting")?.text == "hello, plugins")
  }

  @Test func failuresStayInTheirPluginAndTheHostContinues() throws {
    _ = loadFixtures()
    recorder.presented.removeAll()
    try #require(root.find("explode")).tap()
    // Nothing but the deadline ends the spin.
    host.plugin(named: "spinner")?.run { $0.timeout = .milliseconds(200) }
    try #require(root.find("spin")).tap()
    // The hog's memory error must come before any deadline: a loaded machine may take
    // more than 200 ms to get there, and its alert would then be a repeated timeout.
    host.plugin(named: "spinner")?.run { $0.timeout = .seconds(60) }
    try #require(root.find("hog")).tap()
    let byBoundary = Dictionary(grouping: recorder.presented, by: \.boundary).mapValues {
      $0.map(\.alert.message)
    }
    #expect(byBoundary["clock"] == ["(error object is a table value)"])
    #expect(byBoundary["spinner"] == ["execution timed out"])
    #expect(
      host.plugin(named: "spinner")?.panel.queuedAlerts.first?.message.contains("not enough memory")
        == true)
    #expect(try #require(root.find("tick")).tap())
    #expect(root.find("tick")?.title == "Tocked")
    #expect(host.plugin(named: "clock")?.call("on_event", "ping") == ["clock saw ping"])
  }

  @Test func pluginsCannotReachAboveTheirPanels() throws {
    _ = loadFixtures()
    let clock = try #require(host.plugin(named: "clock"))
    #expect(
      clock.run { try $0.run("return ui.root.parent, pcall(ui.root.remove, ui.root)") }?.prefix(2)
        == [.nil, false])
    // The panel's filter is the host's: the plugin cannot set it.
    let refused = clock.run {
      try $0.run(
        "local ok, e = pcall(function() ui.root.on_error = function() return false end end) return ok, e"
      )
    }
    #expect(refused?.first == false)
    #expect(refused.map { "\($0)" }?.contains("the panel's boundary is the host's") == true)
    clock.run { try $0.run("ui.root:add(ui.button{id = 'x', on_tap = error})") }
    // Declining at the panel (the app's filter) does not pass the error on: the panel is
    // isolated.
    View.treeLock.withLock { clock.panel.boundary?.onError = { _, _ in .decline } }
    recorder.presented.removeAll()
    #expect(root.find("clock")?.find("x")?.tap() == false)
    #expect(recorder.presented.map(\.boundary) == ["clock"])
    #expect(root.alert == nil && container.alert == nil)
  }

  @Test func theHostCannotAttachItsFunctionsToAPluginsViews() throws {
    _ = loadFixtures()
    let hostTree = try ScriptedTree(lua: LuaState(sandbox: LuaSandbox()), root: root)
    defer { hostTree.lua.close() }
    let attempts = [
      "ui.find('tick').on_tap = function() end", "ui.find('clock'):add(ui.button())",
      "ui.find('tick'):move(ui.root)", "ui.stack{children = {ui.find('tick')}}",
      "ui.find('clock').on_error = function() end",
    ]
    for attempt in attempts {
      let error = try #require(throws: LuaError.self, "\(attempt)") { try hostTree.run(attempt) }
      #expect(error.kind == .runtime, "\(attempt)")
      #expect(
        error.message.contains("it belongs to root/plugins/clock"), "\(attempt): \(error.message)")
    }
    // Tapping a plugin's button from the host still works.
    #expect(try hostTree.run("return ui.find('tick'):tap()") == [true])
  }

  @Test func pluginsShareNoMutableState() throws {
    _ = loadFixtures()
    let clock = try #require(host.plugin(named: "clock"))
    let greeter = try #require(host.plugin(named: "greeter"))
    clock.run { try $0.run("string.upper = nil; shared = 'clock'") }
    #expect(greeter.run { try $0.run("return string.upper('x'), shared") } == ["X", .nil])
    // The greeter's fixture sets a global of its own; the clock's state does not see it.
    #expect(
      greeter.run { try $0.run("shared_global = 'greeter' return shared_global") } == ["greeter"])
    #expect(clock.run { try $0.run("return shared_global") } == [.nil])
    // A plugin's ui sees only its own panel.
    #expect(
      clock.run { try $0.run("return ui.root.path, ui.find('greeting')") } == [
        "root/plugins/clock", .nil,
      ])
  }

  @Test func capabilitiesNeedTheHostsConsent() throws {
    host.allowed = [.io]
    _ = loadFixtures()
    #expect(root.find("files")?.text == "table")
    #expect(host.plugin(named: "clock")?.run { try $0.run("return io") } == [.nil])
  }

  @Test func unloadAndReload() throws {
    _ = loadFixtures()
    let clock = try #require(host.plugin(named: "clock"))
    let state = try #require(clock.run { $0 })
    try host.unload("clock")
    #expect(state.isClosed)
    #expect(!clock.isLoaded)
    #expect(root.find("clock") == nil)
    #expect(container.children.map(\.id) == ["broken", "greeter", "spinner"])
    #expect(throws: PluginError.unknownPlugin("clock")) { try host.unload("clock") }
    let spinner = try #require(host.plugin(named: "spinner"))
    spinner.run { try $0.run("counter = 41") }
    let reloaded = try host.reload("spinner")
    #expect(reloaded.run { try $0.run("return counter") } == [.nil])
    #expect(container.children.map(\.id) == ["broken", "greeter", "spinner"])
  }

  @Test func badPluginsAreRefusedClearly() throws {
    #expect(throws: PluginError.notAPlugin(path: "/nonexistent.lua")) {
      try host.load(path: "/nonexistent.lua")
    }
    _ = try host.load(path: Luahost.fixture("plugins/clock.lua"))
    #expect(throws: PluginError.duplicateName("clock")) {
      try host.load(path: Luahost.fixture("plugins/clock.lua"))
    }
    // A manifest that loops is stopped by its instruction budget (counted, not timed).
    #expect(throws: PluginError.badManifest(plugin: "x", reason: "instruction limit exceeded")) {
      try PluginManifest(source: "while true do end", defaultName: "x")
    }
    #expect(
      throws: PluginError.badManifest(plugin: "x", reason: "bad capability name 'no such\\10'")
    ) {
      try PluginManifest(source: "return {capabilities = {'no such\\n'}}", defaultName: "x")
    }
    // Any well-formed name parses; the host decides whether it knows it.
    #expect(
      try PluginManifest(source: "return {capabilities = {'net'}}", defaultName: "x").capabilities
        == ["net"])
    #expect(
      throws: PluginError.badManifest(
        plugin: "x", reason: "manifest.lua:1: attempt to index a nil value (global 'io')")
    ) {
      try PluginManifest(source: "return io.open('x')", defaultName: "x")
    }
    let manifest = try PluginManifest(
      source: "return {name = 'n', version = '2', capabilities = {'os'}}", defaultName: "x")
    #expect(manifest == PluginManifest(name: "n", version: "2", capabilities: [.os]))
    // Read as a script is: a byte order mark and a `#` first line are skipped (they were
    // refused), and a binary chunk still is.
    #expect(
      try PluginManifest(
        source: "\u{FEFF}#!/usr/bin/env lua\nreturn {name = 'bom'}", defaultName: "x"
      )
      .name == "bom")
    #expect(
      throws: PluginError.badManifest(
        plugin: "x", reason: "attempt to load a binary chunk (mode is 't')")
    ) {
      try PluginManifest(source: "#\n\u{1B}Lua", defaultName: "x")
    }
  }
}
