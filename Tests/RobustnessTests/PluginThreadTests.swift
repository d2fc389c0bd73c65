import Foundation
import Lua
import LuaHost
import Synchronization
import Testing
import ViewTree

/// Plugins of one `PluginHost` running on their own threads at the same time, over the
/// shared app tree, with no locking in the test: the product's locks alone must keep the
/// counts exact, the states confined and the threads free of deadlock (and, under
/// `--sanitize=thread`, of data races).
@Suite(.timeLimit(.minutes(30))) struct PluginThreadTests {
  static let threads = 4
  static let rounds = 120

  /// A plugin that builds and removes views in its own panel, taps its own buttons, and
  /// fails in three ways: from a tapped button, from its event handler, and (every tenth
  /// round) by running past its instruction budget. Even-numbered plugins' panels decline
  /// every error (the host's policy: a plugin cannot set its panel's filter); the panel is
  /// isolated, so the error stays there anyway.
  static func source(_ index: Int) -> String {
    """
    hits = 0
    ui.root:add(ui.button{id = 'ok', on_tap = function() hits = hits + 1 end})
    ui.root:add(ui.button{id = 'fail', on_tap = function() error('fail', 0) end})
    function on_event(round)
      assert(ui.root.parent == nil, 'a plugin must not reach above its panel')
      assert(not pcall(ui.root.remove, ui.root), 'a plugin must not move its panel')
      local scratch = ui.stack{id = 'scratch' .. round, children = {ui.text{text = 'x'}}}
      ui.root:add(scratch)
      assert(ui.find('scratch' .. round) == scratch)
      scratch:remove()
      ui.find('ok'):tap()
      ui.find('fail'):tap()
      if round % 10 == 0 then while true do end end
      if round % 7 == 0 then error('event ' .. round, 0) end
      return hits
    end
    """
  }

  /// Everything a panel presents, counting repeats and drops.
  static func alertCount(_ view: View) -> Int {
    view.droppedAlertCount
      + ([view.alert].compactMap { $0 } + view.queuedAlerts).reduce(0) { $0 + $1.count }
  }

  /// Issue 21: an app's module function that bumps a plain counter, called by two plugins
  /// on two threads. The host runs module calls one at a time, so every increment counts
  /// (39,367 of 40,000 survived before), and TSan sees no race.
  @Test func moduleCallsFromPluginsOnThreadsRunOneAtATime() throws {
    final class Counter { var value = 0 }  // plain, not Sendable: the host serializes
    let counter = Counter()
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("luahost-module-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = "local c = require 'counter' function bump(n) for i = 1, n do c.bump() end end"
    for name in ["one", "two"] {
      try source.write(
        to: directory.appendingPathComponent("\(name).lua"), atomically: true, encoding: .utf8)
    }
    let root = View.window(id: "root")
    let container = View.stack(id: "plugins")
    try root.add(container)
    let module = try HostModule("counter") { lua in
      let table = try lua.makeTable()
      try table.set(
        "bump",
        .function(
          lua.function { _ in
            // A read-modify-write with room in between: unserialized calls lose updates.
            let seen = counter.value
            var spin = 0
            for i in 0..<200 { spin &+= i }
            counter.value = seen + 1 + (spin == -1 ? 1 : 0)
            return []
          }))
      return .table(table)
    }
    var limits = LuaSandbox()
    limits.timeout = .seconds(120)
    let host = PluginHost(container: container, limits: limits, modules: [module]) { _ in }
    let plugins = try ["one", "two"].map {
      try host.load(path: directory.appendingPathComponent("\($0).lua").path)
    }
    let group = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for plugin in plugins {
      group.enter()
      Thread {
        start.wait()  // both start together, so their calls overlap
        plugin.call("bump", .integer(20_000))
        group.leave()
      }.start()
    }
    start.signal()
    start.signal()
    group.wait()
    #expect(counter.value == 40_000)
  }

  @Test func pluginsRunOnTheirOwnThreadsOverOneTree() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("luahost-threads-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    for index in 0..<Self.threads {
      try Self.source(index).write(
        to: directory.appendingPathComponent("p\(index).lua"), atomically: true, encoding: .utf8)
    }
    try "ui.root:add(ui.button{id = 'go', on_tap = function() error('extra', 0) end})".write(
      to: directory.appendingPathComponent("extra.lua"), atomically: true, encoding: .utf8)

    let root = View.window(id: "root")
    let container = View.stack(id: "plugins")
    try root.add(container)
    root.environment.alertPresenter = RecordingAlertPresenter()
    var limits = LuaSandbox()
    limits.instructionLimit = 2_000_000
    limits.timeout = .seconds(20)
    let host = PluginHost(
      container: container, limits: limits, output: { _ in },
      policy: { manifest in
        let index = Int(manifest.name.dropFirst()) ?? 1
        return PluginPolicy(onError: index % 2 == 0 ? { _, _ in .decline } : nil)
      })
    let plugins = try (0..<Self.threads).map {
      try host.load(path: directory.appendingPathComponent("p\($0).lua").path)
    }
    #expect(plugins.allSatisfy { $0.isLoaded })

    // The host's own state scripts the whole tree from this thread meanwhile.
    let hostLua = try LuaState(sandbox: LuaSandbox())
    // No deadline: its taps wait for the plugins' locks, which four looping threads retake.
    hostLua.timeout = nil
    let hostTree = try ScriptedTree(lua: hostLua, root: root)
    defer { hostLua.close() }

    let finished = LockedValue<[Int: [String]]>([:])
    let group = DispatchGroup()
    for (index, plugin) in plugins.enumerated() {
      group.enter()
      Thread {
        var failures: [String] = []
        for round in 1...Self.rounds {
          let results = plugin.call("on_event", .integer(Int64(round)))
          let expectsResult = round % 10 != 0 && round % 7 != 0
          if expectsResult != (results != nil) {
            failures.append("round \(round): \(String(describing: results))")
          }
        }
        finished.withLock { $0[index] = failures }
        group.leave()
      }.start()
    }

    var hostTaps = [Int](repeating: 0, count: Self.threads)
    var extraLoads = 0
    while finished.withLock({ $0.count }) < Self.threads {
      for index in 0..<Self.threads {
        let results = try hostTree.run(
          """
          local panel = ui.find('p\(index)')
          return panel:find('ok'):tap(), panel:find('fail'):tap(), panel.parent.id
          """)
        #expect(results == [true, false, "plugins"])
        hostTaps[index] += 1
      }
      let extra = try host.load(path: directory.appendingPathComponent("extra.lua").path)
      extraLoads += 1
      #expect(try hostTree.run("return ui.find('extra'):find('go'):tap()") == [false])
      #expect(host.withTree { _ in Self.alertCount(extra.panel) } == 1)
      try host.unload("extra")
      #expect(!extra.isLoaded)
    }
    group.wait()

    for (index, failures) in finished.withLock({ $0 }) {
      #expect(failures == [], "plugin \(index)")
    }
    let timeouts = Self.rounds / 10
    let eventErrors = (1...Self.rounds).filter { $0 % 7 == 0 && $0 % 10 != 0 }.count
    for (index, plugin) in plugins.enumerated() {
      #expect(
        plugin.run { try $0.run("return hits") } == [
          .integer(Int64(Self.rounds + hostTaps[index]))
        ],
        "plugin \(index)")
      let panelAlerts = host.withTree { _ in Self.alertCount(plugin.panel) }
      // Every failed tap (the plugin's and the host's), every event error and every
      // budget overrun, each counted once, all on the plugin's own panel.
      #expect(
        panelAlerts == Self.rounds + hostTaps[index] + eventErrors + timeouts, "plugin \(index)")
    }
    host.withTree { container in
      #expect(container.children.map(\.id) == (0..<Self.threads).map { "p\($0)" })
      #expect(Self.alertCount(container.root) == 0, "nothing may reach the root")
    }
    #expect(extraLoads > 0)
    for plugin in plugins { try host.unload(plugin.name) }
    #expect(host.withTree { $0.children.isEmpty })
  }
}
