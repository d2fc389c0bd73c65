import Foundation
import Lua
import LuaHost
import Testing
import ViewTree

/// Issue 27: plugins unloaded or reloaded from anywhere (their own code included), and
/// calls across plugins from host code. Each case runs many times; none may crash or hang.
@Suite(.timeLimit(.minutes(30))) struct PluginLifetimeTests {
  /// A host whose plugins get a `host` module: `host.unload(name)`, `host.reload(name)`,
  /// `host.call(name, fn)` (calls another plugin's global function), and `host.tap(name,
  /// id)` (taps another plugin's button through `withTree`).
  final class Rig: @unchecked Sendable {
    // `@unchecked Sendable`: `host` is thread-safe; `folder` never changes.
    let root = View.window(id: "root")
    let container = View.stack(id: "plugins")
    let host: PluginHost
    let folder: String

    init(_ files: [String: String]) throws {
      folder =
        FileManager.default.temporaryDirectory
        .appendingPathComponent("luahost-lifetime-\(UUID().uuidString)").path
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true)
      for (name, source) in files {
        try source.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
      }
      try root.add(container)
      root.environment.alertPresenter = RecordingAlertPresenter()
      var limits = LuaSandbox()
      limits.timeout = .seconds(60)
      let box = WeakHost()
      host = PluginHost(
        container: container, limits: limits, modules: [try Self.module(box)], output: { _ in })
      box.host = host
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    func load(_ file: String) throws -> Plugin { try host.load(path: folder + "/" + file) }

    static func module(_ box: WeakHost) throws -> HostModule {
      try HostModule("host") { lua in
        let module = try lua.makeTable()
        try module.set(
          "unload",
          .function(
            lua.function { (name: String) in
              try box.host?.unload(name)
              return true
            }))
        try module.set(
          "reload",
          .function(
            lua.function { (name: String) in
              try box.host?.reload(name)
              return true
            }))
        try module.set(
          "call",
          .function(
            lua.function { (name: String, function: String) -> Bool in
              box.host?.plugin(named: name)?.call(function) != nil
            }))
        try module.set(
          "tap",
          .function(
            lua.function { (name: String, id: String) -> Bool in
              guard let host = box.host else { return false }
              return host.withTree { container in
                container.find(name)?.find(id)?.tap() ?? false
              }
            }))
        return .table(module)
      }
    }

    /// Alerts presented anywhere below the window.
    var alertMessages: [String] {
      host.withTree { _ in
        var messages: [String] = []
        _ = root.find { view in
          messages += ([view.alert].compactMap { $0 } + view.queuedAlerts).map(\.message)
          return false
        }
        return messages
      }
    }
  }

  final class WeakHost: @unchecked Sendable {
    // `@unchecked Sendable`: set once, before any plugin runs.
    weak var host: PluginHost?
  }

  /// Threads wait at `arrive()` until `parties` of them are there, round after round.
  final class Barrier: @unchecked Sendable {
    // `@unchecked Sendable`: every field is touched only while holding `condition`.
    private let condition = NSCondition()
    private let parties: Int
    private var waiting = 0
    private var round = 0

    init(parties: Int) { self.parties = parties }

    func arrive() {
      condition.lock()
      defer { condition.unlock() }
      let mine = round
      waiting += 1
      if waiting == parties {
        waiting = 0
        round += 1
        condition.broadcast()
        return
      }
      while round == mine { condition.wait() }
    }
  }

  @Test(arguments: ["sync", "tap", "timer"])
  func aPluginUnloadsItselfFromItsOwnCode(path: String) async throws {
    for _ in 1...20 {
      let rig = try Rig([
        "me.lua": """
        local host = require 'host'
        local function bye() local ok = host.unload('me') assert(ok) return 'after' end
        local mode = '\(path)'
        if mode == 'sync' then
          bye()
        elseif mode == 'tap' then
          ui.root:add(ui.button{id = 'b', on_tap = function() bye() end}):tap()
        else
          timer.after(0, function() bye() ui.root:add(ui.text{text = 'still here'}) end)
        end
        """
      ])
      let plugin = try rig.load("me.lua")
      await rig.host.idle()
      #expect(!plugin.isLoaded)
      #expect(rig.host.plugins.isEmpty)
      #expect(plugin.run { try $0.run("return 1") } == nil)
      #expect(rig.host.withTree { _ in rig.container.children.isEmpty })
    }
  }

  @Test func aPluginReloadsItselfFromItsOwnCode() async throws {
    for _ in 1...20 {
      let rig = try Rig([
        "me.lua": """
        local host = require 'host'
        ui.root:add(ui.button{id = 'again', on_tap = function() host.reload('me') end})
        """
      ])
      let first = try rig.load("me.lua")
      #expect(rig.host.withTree { _ in first.panel.find("again")?.tap() } == true)
      await rig.host.idle()
      #expect(!first.isLoaded)
      let second = try #require(rig.host.plugin(named: "me"))
      #expect(second !== first && second.isLoaded)
      #expect(second.run { try $0.run("return 1 + 1") } == [2])
    }
  }

  /// A plugin boundary's `on_reset` run on the host's thread, not the plugin's: the host
  /// presses Reset, or changes a value the boundary lists in `reset_keys`. The views it
  /// returns must be read while the plugin's state is still locked (they were read after,
  /// which stopped the process: found by a hostile-plugin run of `luahost --plugins`).
  @Test(arguments: ["choose", "env"])
  func aPluginBoundaryResetFromTheHostRebuildsItsContent(how: String) throws {
    let rig = try Rig([
      "p.lua": """
      local box = ui.root:add(ui.boundary{id = 'box', reset_keys = {'theme'},
        on_reset = function() return ui.text{id = 'fresh', text = 'rebuilt'} end})
      box:add(ui.button{id = 'fail', on_tap = function() error('boom', 0) end})
      """
    ])
    _ = try rig.load("p.lua")
    let rebuilt = rig.host.withTree { container -> Bool in
      guard let box = container.find("box"), let fail = box.find("fail") else { return false }
      _ = fail.tap()
      guard box.alert != nil else { return false }
      if how == "choose" {
        _ = box.choose("Reset")
      } else {
        container.setEnvironment(named: "theme", to: "dark")
      }
      return box.find("fresh") != nil && box.find("fail") == nil
    }
    #expect(rebuilt)
  }

  /// A plugin's button that removes itself (or the panel's content) and then raises: the
  /// error is shown on the plugin's panel, as any other error of the plugin, not lost in
  /// the removed subtree; tapped by the host's thread.
  @Test(arguments: ["self:remove()", "self.parent:remove()"])
  func aButtonThatRemovesItselfAndFailsAlertsItsPanel(removal: String) throws {
    let rig = try Rig([
      "p.lua": """
      ui.root:add(ui.stack{id = 'box'}):add(ui.button{id = 'gone', on_tap = function(self)
        \(removal)
        error('after removal', 0)
      end})
      """
    ])
    let plugin = try rig.load("p.lua")
    let outcome = rig.host.withTree { _ -> (Bool, String?) in
      guard let button = plugin.panel.find("gone") else { return (true, "no button") }
      return (button.tap(), plugin.panel.alert?.message)
    }
    #expect(outcome.0 == false)
    #expect(outcome.1 == "after removal")
  }

  @Test func reloadWhileOtherThreadsTapTheWaitingButton() async throws {
    let rig = try Rig([
      "p.lua": """
      ui.root:add(ui.button{id = 'wait', on_tap = function() timer.sleep(0.001) error('late', 0) end})
      """
    ])
    _ = try rig.load("p.lua")
    let done = LockedValue(false)
    let group = DispatchGroup()
    for _ in 0..<2 {
      group.enter()
      Thread {
        while !done.withLock({ $0 }) {
          _ = rig.host.withTree { container in container.find("p")?.find("wait")?.tap() }
        }
        group.leave()
      }.start()
    }
    for _ in 1...20 { _ = try rig.host.reload("p") }
    done.withLock { $0 = true }
    group.wait()
    await rig.host.idle()
    #expect(rig.host.plugin(named: "p")?.isLoaded == true)
  }

  /// Two plugins on two threads, each calling into the other through the host: a lock
  /// cycle, forced every round (both wait at a barrier while holding their own state).
  /// One side must fail at once with an error naming both plugins; never a hang.
  @Test(arguments: ["call", "tap"])
  func callsAcrossPluginsInACycleFailInsteadOfHanging(how: String) throws {
    let body = { (me: String, other: String) in
      """
      local host = require 'host'
      ui.root:add(ui.button{id = 'poke', on_tap = function() return true end})
      function poke() return true end
      function round()
        arrive()
        if '\(how)' == 'call' then return host.call('\(other)', 'poke')
        else return host.tap('\(other)', 'poke') end
      end
      """
    }
    let rig = try Rig(["a.lua": body("a", "b"), "b.lua": body("b", "a")])
    let a = try rig.load("a.lua")
    let b = try rig.load("b.lua")
    // The barrier is the plugins' own function, not a module's: module calls run one at a
    // time, so two could never meet in one.
    let barrier = Barrier(parties: 2)
    for plugin in [a, b] {
      plugin.run { lua in
        try lua.register("arrive") { _ in
          barrier.arrive()
          return []
        }
      }
    }
    let group = DispatchGroup()
    let outcomes = LockedValue<[Bool]>([])
    // Between rounds, outside every state's lock: a refused side must not start its next
    // round (taking its own state again) while the other still waits for that state.
    let rounds = Barrier(parties: 2)
    for plugin in [a, b] {
      group.enter()
      Thread {
        var results: [Bool] = []
        for _ in 1...200 {
          results.append(plugin.call("round") == [true])
          rounds.arrive()
        }
        outcomes.withLock { $0 += results }
        group.leave()
      }.start()
    }
    group.wait()
    let all = outcomes.withLock { $0 }
    #expect(all.count == 400)
    // Every round, one call went through and the other was refused: never both waiting.
    #expect(all.filter { $0 }.count == 200)
    // Each refused call left an alert (counted) that names the locks of the cycle (the
    // plugins', or one plugin's and the host's module lock the other holds) and the rule.
    let refusals = rig.alertMessages.filter { $0.contains("deadlock refused") }
    #expect(!refusals.isEmpty)
    for message in refusals {
      let names = ["plugin 'a'", "plugin 'b'", "the host's modules"].filter(message.contains)
      #expect(names.count == 2, "\(message)")
      #expect(message.contains("Plugin.send"))
    }
  }
}
