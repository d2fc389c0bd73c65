import Lua
import LuaHost
import Synchronization
import TestSupport
import Testing
import ViewTree

struct Offline: Error, Equatable {}

/// Records alerts from any thread, and lets a test wait for one.
final class AlertInbox: AlertPresenter, @unchecked Sendable {
  // `@unchecked Sendable`: `alerts` is guarded by its mutex.
  private let alerts = LockedValue<[(alert: Alert, boundary: String)]>([])
  func present(_ alert: Alert, boundary: View) {
    alerts.withLock { $0.append((alert, boundary.id)) }
  }
  var all: [(alert: Alert, boundary: String)] { alerts.withLock { $0 } }
  /// Waits until `count` alerts arrived (at most 60 s).
  func wait(for count: Int) async {
    for _ in 0..<60_000 where all.count < count { try? await Task.sleep(for: .milliseconds(1)) }
  }
}

/// `hang()` for scripts: an async function that waits until its task is cancelled (an hour
/// otherwise, longer than any test's limit) and records the cancellation, so a test waits
/// for that event and checks it instead of waiting for work to end by itself.
final class CancellationProbe: Sendable {
  private let cancellations = LockedValue(0)
  private let starts = LockedValue(0)

  /// Waits until `count` waits have begun (at most 60 s): cancel only then, or the driver
  /// may see the cancellation before the wait starts and never run it.
  func waitForStarts(_ count: Int) async -> Bool {
    await waitUntil { starts.withLock { $0 } >= count }
  }

  /// How many waits were cancelled.
  var cancelled: Int { cancellations.withLock { $0 } }

  /// The function, made in `lua` (call holding the state's lock).
  func function(in lua: LuaState) throws -> LuaFunction {
    try lua.function { (_: [LuaValue]) async throws -> [LuaValue] in
      self.starts.withLock { $0 += 1 }
      do {
        try await Task.sleep(for: .seconds(3600))
      } catch {
        if error is CancellationError, Task.isCancelled {
          self.cancellations.withLock { $0 += 1 }
        }
        throw error
      }
      return []
    }
  }

  /// Waits until `count` waits were cancelled (at most 60 s), and says whether they were.
  func waitForCancellations(_ count: Int) async -> Bool {
    await waitUntil { cancelled >= count }
  }
}

/// Waits until `condition` holds, for at most 60 s (a generous bound on an event that
/// comes at once), and says whether it held.
func waitUntil(_ condition: () -> Bool) async -> Bool {
  for _ in 0..<60_000 where !condition() { try? await Task.sleep(for: .milliseconds(1)) }
  return condition()
}

@Suite(.timeLimit(.minutes(30))) struct AsyncActionTests {
  let root = View.window(id: "root")
  let inbox = AlertInbox()
  let tree: ScriptedTree

  init() throws {
    root.environment.alertPresenter = inbox
    var sandbox = LuaSandbox()
    sandbox.timeout = nil
    tree = try ScriptedTree(lua: LuaState(sandbox: sandbox), root: root)
    try tree.withState { lua in
      try lua.register("fetch") { (url: String) async throws -> String in
        await Task.yield()
        if url == "offline" { throw Offline() }
        return "page at \(url)"
      }
    }
  }

  @discardableResult
  func run(_ code: String) throws -> [LuaValue] {
    try tree.withState { try $0.run(code, name: "=test") }
  }

  @Test func aTapThatWaitsReturnsAtOnceAndItsErrorAlertsLater() async throws {
    try run(
      """
      local guard = ui.root:add(ui.boundary{ id = 'guard' })
      result = nil
      guard:add(ui.button{ id = 'load', on_tap = function()
        result = fetch('example')
        fetch('offline')
      end })
      """)
    let button = try #require(root.find("load"))
    #expect(button.tap())  // returned before the work is done
    await tree.pendingWork.idle()
    #expect(try run("return result") == ["page at example"])
    await inbox.wait(for: 1)
    let alert = try #require(inbox.all.first)
    #expect(alert.boundary == "guard")
    #expect((alert.alert.error as? LuaError)?.underlying(as: Offline.self) == Offline())
    #expect(alert.alert.path == "root/guard/load")
  }

  @Test func removingTheViewCancelsItsWaitingAction() async throws {
    let probe = CancellationProbe()
    try tree.withState { lua in try lua.globals().set("hang", .function(probe.function(in: lua))) }
    try run(
      """
      ui.root:add(ui.button{ id = 'slow', on_tap = function()
        hang()
        went_on = true
        error('should not happen')
      end })
      """)
    let button = try #require(root.find("slow"))
    #expect(button.tap())
    #expect(tree.pendingWork.count == 1)
    try #require(await probe.waitForStarts(1), "the action's wait never began")
    View.treeLock.withLock { _ = button.removeFromParent() }
    // The wait cannot end by itself within the test's limit: only a cancellation ends it.
    let sawCancellation = await probe.waitForCancellations(1)
    try #require(sawCancellation, "removing the view did not cancel its waiting action")
    await tree.pendingWork.idle()
    #expect(try run("return went_on") == [.nil])
    #expect(inbox.all.isEmpty)
  }

  /// The script that removes a view goes on: cancelling the view's waiting action stops
  /// that action alone. It requested a stop of the whole state, which interrupted the
  /// remover's next instructions (`luahost: interrupted`), `pcall` or not.
  @Test func theCodeThatRemovesAViewWithAWaitingActionGoesOn() async throws {
    let probe = CancellationProbe()
    try tree.withState { lua in try lua.globals().set("hang", .function(probe.function(in: lua))) }
    try run(
      """
      local slow = ui.root:add(ui.button{ id = 'slow', on_tap = function() hang() went_on = true end })
      slow:tap()
      """)
    try #require(await probe.waitForStarts(1), "the action's wait never began")
    let results = try run(
      """
      local ok = pcall(function() ui.find('slow'):remove() end)
      local n = 0
      for i = 1, 1e5 do n = n + i end
      return ok, n
      """)
    #expect(results == [true, 5_000_050_000])
    try #require(await probe.waitForCancellations(1), "removing the view did not cancel its action")
    await tree.pendingWork.idle()
    #expect(try run("return went_on") == [.nil])
    #expect(inbox.all.isEmpty)
  }

  @Test func aTimersErrorReachesTheBoundaryOfTheViewThatScheduledIt() async throws {
    try run(
      """
      local guard = ui.root:add(ui.boundary{ id = 'guard' })
      local b = guard:add(ui.button{ id = 'later', on_tap = function()
        timer.after(0.01, function() error('from the timer') end)
      end })
      local never = timer.after(60, function() error('cancelled') end)
      cancelled = never:cancel()
      """)
    #expect(try run("return cancelled") == [true])
    _ = root.find("later")?.tap()
    await tree.pendingWork.idle()
    await inbox.wait(for: 1)
    #expect(inbox.all.map(\.boundary) == ["guard"])
    #expect(inbox.all.first?.alert.message.contains("from the timer") == true)
  }

  @Test func timerArgumentsAreChecked() throws {
    let range = "bad argument #1 to 'after' (seconds must be between 0 and 1e9)"
    for (bad, message) in [
      ("timer.after(-1, print)", range), ("timer.after(0/0, print)", range),
      ("timer.after(1)", "bad argument #2 to 'after' (function expected, got no value)"),
      ("timer.after('x', print)", "bad argument #1 to 'after' (number expected, got string)"),
      ("timer.after(1e300, print)", range),
    ] {
      let error = try #require(throws: LuaError.self, "\(bad)") { try run(bad) }
      #expect(error.kind == .runtime, "\(bad)")
      #expect(error.message.contains(message), "\(bad): \(error.message)")
    }
    // sleep outside a coroutine the host drives says so.
    let sleep = try #require(throws: LuaError.self) { try run("timer.sleep(0)") }
    #expect(sleep.kind == .runtime)
    #expect(sleep.message.contains("outside a task-driven coroutine"), "\(sleep.message)")
  }
}

@Suite(.timeLimit(.minutes(30))) struct AsyncPluginTests {
  let root = View.window(id: "root")
  let container = View.stack(id: "plugins")
  let inbox = AlertInbox()

  /// No deadline: the suite's other tests may keep the cooperative pool busy for a while.
  var limits: LuaSandbox {
    var limits = LuaSandbox()
    limits.timeout = nil
    return limits
  }

  init() throws {
    try root.add(container)
    root.environment.alertPresenter = inbox
  }

  @Test func pluginsWaitAtTheSameTime() async throws {
    // `gate.arrive()` returns once both plugins have arrived: if they waited in turn, the
    // first would wait for ever (and the test would time out).
    let arrived = LockedValue(0)
    let gate = try HostModule("gate") { lua in
      let module = try lua.makeTable()
      try module.set(
        "arrive",
        .function(
          lua.function { (_: [LuaValue]) async throws -> [LuaValue] in
            arrived.withLock { $0 += 1 }
            while arrived.withLock({ $0 }) < 2 { try await Task.sleep(for: .milliseconds(1)) }
            return []
          }))
      return .table(module)
    }
    let lines = LockedValue<[String]>([])
    let host = PluginHost(container: container, limits: limits, modules: [gate]) { line in
      lines.withLock { $0.append(line) }
    }
    let folder = try Luahost.temporaryFolder([
      "a.lua": "require('gate').arrive() timer.sleep(0.05) print('a done')",
      "b.lua": "require('gate').arrive() timer.sleep(0.05) print('b done')",
    ])
    for result in host.loadAll(in: folder) { _ = try result.get() }
    await host.idle()
    #expect(lines.withLock { $0.sorted() } == ["[a] a done", "[b] b done"])
    #expect(inbox.all.isEmpty)
  }

  @Test func timersAndWaitingActionsArePaidFromThePluginsMemory() async throws {
    var limits = limits
    limits.memoryLimit = 4 << 20
    let host = PluginHost(container: container, limits: limits) { _ in }
    let folder = try Luahost.temporaryFolder([
      "bomb.lua": "for i = 1, 1e6 do timer.after(1e6, print) end",
      "taps.lua": """
      local b = ui.root:add(ui.button{ id = 'b', on_tap = function() timer.sleep(1e6) end })
      for i = 1, 1e4 do b:tap() end
      """,
    ])
    for result in host.loadAll(in: folder) { _ = try result.get() }
    await inbox.wait(for: 2)
    let messages = inbox.all.map(\.alert.message)
    #expect(
      messages.count >= 2 && messages.allSatisfy { $0.contains("not enough memory") }, "\(messages)"
    )
    // Far fewer than a million are pending: about the limit's worth.
    let bomb = try #require(host.plugin(named: "bomb"))
    #expect(bomb.pendingWork.count < 4096, "\(bomb.pendingWork.count)")
    for plugin in host.plugins { try host.unload(plugin.name) }
  }

  @Test func aHandlerThatWaitsFailsOnItsPanelAndUnloadingCancelsWork() async throws {
    let probe = CancellationProbe()
    let module = try HostModule("probe") { lua in
      let table = try lua.makeTable()
      try table.set("hang", .function(probe.function(in: lua)))
      return .table(table)
    }
    let host = PluginHost(container: container, limits: limits, modules: [module]) { _ in }
    let folder = try Luahost.temporaryFolder([
      "late.lua": "function on_event(n) timer.sleep(0.01) error('late ' .. n) end",
      // Neither its timer (due in 11 days) nor its handler (waiting in `hang`) can end by
      // itself within the test's limit: only a cancellation ends them.
      "slow.lua": """
      timer.after(1e6, function() error('never') end)
      function on_event() require('probe').hang() error('never either') end
      """,
    ])
    for result in host.loadAll(in: folder) { _ = try result.get() }
    let late = try #require(host.plugin(named: "late"))
    #expect(late.send("on_event", 7))
    #expect(!late.send("missing"))
    await late.pendingWork.idle()
    await inbox.wait(for: 1)
    #expect(inbox.all.map(\.boundary) == ["late"])
    #expect(inbox.all.first?.alert.message.contains("late 7") == true)
    let slow = try #require(host.plugin(named: "slow"))
    #expect(slow.pendingWork.count == 1)
    #expect(slow.send("on_event"))
    #expect(slow.pendingWork.count == 2)
    try #require(await probe.waitForStarts(1), "the handler's wait never began")
    try host.unload("slow")
    let sawCancellation = await probe.waitForCancellations(1)
    try #require(sawCancellation, "unloading did not cancel the waiting handler")
    let drained = await waitUntil { slow.pendingWork.count == 0 }
    #expect(drained, "unloading did not cancel the timer")
    #expect(inbox.all.count == 1)
  }
}
