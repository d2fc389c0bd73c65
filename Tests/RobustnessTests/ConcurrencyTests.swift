import Foundation
import Lua
import LuaHost
import LuaHostFuzzing
import Synchronization
import Testing
import ViewTree

/// An app tree shared by plugin threads.
///
/// `View` is not thread-safe and not `Sendable`: a tree is confined to one thread at a
/// time. This wrapper makes "one at a time" true with one lock: `root` and everything
/// reachable from it (views, their actions, alerts, the presenter) are touched only inside
/// ``withTree(_:)``, which holds `lock`. That is what justifies `@unchecked Sendable`.
/// A plugin's Lua state is used by its own thread only; whenever that Lua code touches the
/// tree (adding views, tapping, routing errors), the thread holds the lock.
private final class SharedTree: @unchecked Sendable {
  private let lock = NSLock()
  private let root: View
  private let apps: View

  init() throws {
    root = View.window(id: "root")
    root.environment.alertPresenter = RecordingAlertPresenter()
    apps = View.boundary(id: "apps", BoundaryConfiguration(title: "App"))
    try root.add(apps)
  }

  /// Runs `body` with the root and the shared `apps` boundary, holding the lock.
  func withTree<R>(_ body: (_ root: View, _ apps: View) throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(root, apps)
  }
}

/// The alerts a view holds, counting repeats and drops: no error may be lost or counted twice.
private func alertCount(_ view: View) -> Int {
  view.droppedAlertCount
    + ([view.alert].compactMap { $0 } + view.queuedAlerts).reduce(0) {
      $0 + $1.count
    }
}

@Suite(.timeLimit(.minutes(30))) struct ConcurrencyTests {
  static let plugins = 4
  static let rounds = 60

  /// What one plugin thread expects to find in the tree when it is done.
  struct Expected: Sendable {
    var atPanel = 0
    var declined = 0
    var failures: [String] = []
  }

  /// One plugin: its own sandboxed state on its own thread, raising errors into its panel
  /// (a boundary inside the shared `apps` boundary) and, by declining, into `apps`.
  private static func runPlugin(_ index: Int, _ shared: SharedTree) -> Expected {
    var expected = Expected()
    var sandbox = ChunkFuzzer.sandbox
    // Generous: every call here must finish (the budget, not the deadline, stops the loop
    // of `budget`), and a deadline of 200 ms could pass on a loaded machine. The deadline
    // is still armed and disarmed on every call, from every thread.
    sandbox.timeout = .seconds(60)
    sandbox.instructionLimit = 50_000
    do {
      let lua = try LuaState(sandbox: sandbox)
      let tree = try shared.withTree { _, apps in
        let panel = View.boundary(id: "plugin\(index)")
        try apps.add(panel)
        panel.onTap = { _ in throw HostError(code: index) }
        let tree = try ScriptedTree(lua: lua, root: panel)
        try tree.run(
          """
          ui.root.on_error = function(err) if tostring(err):find('decline') then return false end end
          ui.root:add(ui.button{id = 'handled', on_tap = function() error('handled', 0) end})
          ui.root:add(ui.button{id = 'declined', on_tap = function() error('decline me', 0) end})
          ui.root:add(ui.button{id = 'budget', on_tap = function() while true do end end})
          """, name: "=plugin\(index)")
        return tree
      }
      for round in 0..<rounds {
        // The plugin's own work, outside the lock: errors raised and caught in its state,
        // and a throwaway sandbox now and then (the watchdog is shared by all threads).
        do {
          try tree.run("error({round = \(round)})")
          expected.failures.append("error({round}) returned")
        } catch let error as LuaError where error.kind == .runtime {
        }
        if try tree.run("local ok, e = pcall(error, 'x') return ok, e") != [false, "x"] {
          expected.failures.append("pcall did not catch")
        }
        if round % 10 == 0 {
          var quick = LuaSandbox()
          quick.timeout = .milliseconds(2)
          let throwaway = try LuaState(sandbox: quick)
          do {
            try throwaway.run("while true do end")
            expected.failures.append("the endless loop returned")
          } catch let error as LuaError where error.kind == .timeout {
          } catch {
            expected.failures.append("expected a timeout, got \(error)")
          }
          throwaway.close()
        }
        try shared.withTree { _, _ in
          // (The button that runs out of budget is tapped from Swift below: tapped from Lua,
          // the stop is sticky and ends this script too, as it must.)
          let results = try tree.run(
            "return ui.find('handled'):tap(), ui.find('declined'):tap()", name: "=taps")
          if results != [false, false] {
            expected.failures.append("taps did not both fail: \(results)")
          }
          expected.atPanel += 1
          expected.declined += 1
          // The panel's own Swift action throws: its tap must fail, and alert once.
          if tree.root.tap() { expected.failures.append("the panel's tap succeeded") }
          expected.atPanel += 1
        }
        if round % 15 == 0 {
          // An instruction budget that runs out inside a tap, called from Swift.
          shared.withTree { _, _ in
            if tree.root.find("budget")?.tap() != false {
              expected.failures.append("the budget tap did not fail")
            }
            expected.atPanel += 1
          }
        }
      }
      shared.withTree { _, _ in lua.close() }
    } catch {
      expected.failures.append("plugin \(index): \(error)")
    }
    return expected
  }

  @Test func pluginsOnThreadsShareOneTree() throws {
    let shared = try SharedTree()
    let results = LockedValue<[Int: Expected]>([:])
    let group = DispatchGroup()
    for index in 0..<Self.plugins {
      group.enter()
      let thread = Thread {
        let expected = Self.runPlugin(index, shared)
        results.withLock { $0[index] = expected }
        group.leave()
      }
      thread.start()
    }
    group.wait()
    let expected = results.withLock { $0 }
    #expect(expected.count == Self.plugins)
    for (index, plugin) in expected.sorted(by: { $0.key < $1.key }) {
      #expect(plugin.failures == [], "plugin \(index)")
    }
    shared.withTree { root, apps in
      for index in 0..<Self.plugins {
        let panel = apps.children.first { $0.id == "plugin\(index)" }
        #expect(panel.map(alertCount) == expected[index]?.atPanel, "plugin \(index)")
      }
      #expect(alertCount(apps) == expected.values.reduce(0) { $0 + $1.declined })
      #expect(alertCount(root) == 0, "nothing may reach the root")
      #expect(apps.alert?.title == "App")
    }
  }
}
