import Foundation
import Lua
import LuaHost
import Testing
import ViewTree

/// A Swift error with a recovery option, raised through Lua.
private struct LongMessage: Error, CustomStringConvertible {
  var text: String
  var description: String { text }
}

private struct GoneOffline: RecoverableError, CustomStringConvertible {
  var recoveryOptions: [String] { ["Go online"] }
  func attemptRecovery(optionIndex: Int) -> Bool { true }
  var description: String { "offline" }
}

@Suite(.timeLimit(.minutes(30))) struct ScriptedRecoveryTests: ScriptedWindowSuite {
  let root = View.window(id: "root")
  let recorder = Recorder()
  let tree: ScriptedTree

  init() throws {
    // No deadline: on a loaded machine a wait for the cooperative pool may pass one.
    var sandbox = LuaSandbox()
    sandbox.timeout = nil
    root.environment.alertPresenter = recorder
    tree = try ScriptedTree(lua: LuaState(sandbox: sandbox), root: root)
    try tree.withState { try $0.register("sync") { _ in throw GoneOffline() } }
  }

  @Test func tryAgainFromLuaRerunsTheTapAndCountsTheNewFailure() throws {
    let results = try run(
      """
      local tries = 0
      local saver = ui.root:add(ui.boundary{ id = 'saver', retry = true })
      saver:add(ui.button{ id = 'save', on_tap = function()
        tries = tries + 1
        if tries < 3 then error('disk busy', 0) end
      end }):tap()
      local first = saver.alert
      local again = first:choose('Try again')
      local second = saver.alert
      local last = second:choose(1)
      return table.concat(first.actions, ','), again, second.count, last, saver.alert, tries
      """)
    #expect(results == ["Try again,That sucks", "retried", 2, "retried", .nil, 3])
  }

  /// A failed action's coroutine, and everything its stack held, is garbage as soon as the
  /// tap returns to the script: it stayed referenced until Swift next entered the state,
  /// so a script that caught a memory error in an action could not collect its way out.
  @Test func aFailedActionsMemoryIsFreeWhenTheTapReturns() throws {
    let results = try run(
      """
      local big = ui.root:add(ui.button{ id = 'big', on_tap = function()
        local t = {}
        for i = 1, 2000 do t[i] = string.rep('x', 1000) .. i end
        error('boom', 0)
      end })
      collectgarbage() collectgarbage()
      local before = collectgarbage('count')
      big:tap()
      collectgarbage() collectgarbage()
      return collectgarbage('count') - before < 256
      """)
    #expect(results == [true])
  }

  @Test func aUiErrorCarriesItsTitleMessageAndActions() throws {
    let results = try run(
      """
      local freed = false
      local disk = ui.root:add(ui.boundary{ id = 'disk' })
      disk:add(ui.button{ id = 'w', on_tap = function()
        error(ui.error{ title = 'Cannot save', message = 'disk full',
          actions = { { 'Free space', function() freed = true end } } })
      end }):tap()
      local alert = disk.alert
      return alert.title, alert.message, table.concat(alert.actions, ','), alert:choose('Free space'),
        freed, disk.alert
      """)
    #expect(
      results == ["Cannot save", "disk full", "Free space,That sucks", "recovered", true, .nil])
  }

  @Test func aFailingUiErrorActionLeavesTheAlertAndRaisesItsOwn() throws {
    let results = try run(
      """
      local disk = ui.root:add(ui.boundary{ id = 'disk' })
      disk:add(ui.button{ id = 'w', on_tap = function()
        error(ui.error{ message = 'disk full', actions = { { 'Free space', function() error('still full', 0) end } } })
      end }):tap()
      local outcome = disk.alert:choose('Free space')
      local messages = {}
      for i, a in ipairs(disk.alerts) do messages[i] = a.message end
      return outcome, table.concat(messages, ' | ')
      """)
    #expect(results == ["not_recovered", "disk full | still full"])
  }

  @Test func onErrorCanAddActionsAndSeesTheUiErrorValue() throws {
    let results = try run(
      """
      local seen
      local guard = ui.root:add(ui.boundary{ id = 'guard', on_error = function(err)
        seen = err.message
        return true, { { 'Open log', function() end } }
      end })
      guard:add(ui.button{ id = 'b', on_tap = function() error(ui.error{ message = 'broken' }) end }):tap()
      return seen, table.concat(guard.alert.actions, ',')
      """)
    #expect(results == ["broken", "Open log,That sucks"])
  }

  @Test func onResetRebuildsTheSubtree() throws {
    let results = try run(
      """
      local panel = ui.root:add(ui.boundary{ id = 'panel', reset_label = 'Start over',
        on_reset = function(b) return ui.text{ id = 'fresh', text = 'new' } end })
      panel:add(ui.button{ id = 'old', on_tap = function() error('stale') end }):tap()
      local outcome = panel.alert:choose('Start over')
      local ids = {}
      for i, c in ipairs(panel.children) do ids[i] = c.id end
      return outcome, table.concat(ids, ','), panel.alert
      """)
    #expect(results == ["reset", "fresh", .nil])
  }

  @Test func aResetKeyChangeResetsTheBoundary() throws {
    let results = try run(
      """
      local resets = 0
      local editor = ui.root:add(ui.boundary{ id = 'editor', reset_keys = { 'document' },
        on_reset = function() resets = resets + 1 end })
      editor:add(ui.button{ id = 'b', on_tap = function() error('bad document') end }):tap()
      ui.root.env.document = 'a.txt'
      local first = resets
      editor:add(ui.button{ id = 'c', on_tap = function() error('bad again') end }):tap()
      ui.root.env.document = 'a.txt'
      return first, resets, editor.alert ~= nil
      """)
    #expect(results == [1, 1, true])
  }

  @Test func theHandlerChainIsInTheAlertsFields() throws {
    let results = try run(
      """
      local outer = ui.root:add(ui.boundary{ id = 'outer' })
      local inner = outer:add(ui.boundary{ id = 'inner', on_error = function() return false end })
      inner:add(ui.button{ id = 'b', on_tap = function() error('x') end }):tap()
      local alert = outer.alert
      return alert.chain, alert.handlers[1].decision, alert.handlers[2].path, alert.traceback ~= nil
      """)
    #expect(results == ["inner declined · outer presented", "declined", "root/outer", true])
  }

  @Test func aRecoverableSwiftErrorThatCrossedLuaOffersItsOptions() throws {
    try run("ui.root:add(ui.button{ id = 'b', on_tap = function() sync() end }):tap()")
    let alert = try #require(root.alert)
    #expect(alert.actions.map(\.label) == ["Go online", "That sucks"])
    #expect(root.choose("Go online") == .recovered)
  }

  @Test func badUiErrorsAndChoicesAreClearErrors() throws {
    let tooMany = (1...9).map { "{'a\($0)', print}" }.joined(separator: ",")
    for (code, message) in [
      ("ui.error{}", "ui.error: message (a string) expected"),
      (
        "ui.error{ message = 'm', actions = { 'x' } }",
        "ui.error: each action is { label, function }"
      ),
      (
        "ui.error{ message = 'm', actions = { \(tooMany) } }",
        "ui.error: actions: at most 8 entries, got 9"
      ),
    ] {
      let refusal = try #require(throws: LuaError.self, "\(code)") { try run(code) }
      #expect(refusal.kind == .runtime, "\(code)")
      #expect(refusal.message.contains(message), "\(code): \(refusal.message)")
    }
    let error = #expect(throws: LuaError.self) {
      try run(
        """
        local b = ui.root:add(ui.boundary{ id = 'b' })
        b:add(ui.button{ id = 'x', on_tap = function() error('boom') end }):tap()
        b.alert:choose('Nope')
        """)
    }
    #expect(error?.message.contains("no button Nope (its buttons: 'That sucks')") == true)
  }

  /// A kept alert's buttons run nothing once it was dismissed (found by a hostile review:
  /// a kept "Retry payment" ran its action again and again).
  @Test func aDismissedAlertsButtonsRunNothing() throws {
    let error = #expect(throws: LuaError.self) {
      try run(
        """
        runs = 0
        local g = ui.root:add(ui.boundary{ id = 'g' })
        g:add(ui.button{ id = 'pay', on_tap = function()
          error(ui.error{ message = 'payment failed',
            actions = { { 'Retry payment', function() runs = runs + 1 return true end } } })
        end }):tap()
        local kept = g.alert
        assert(kept:choose('Retry payment') == 'recovered')
        kept:choose('Retry payment')
        """)
    }
    #expect(error?.message.contains("alert:choose: the alert is no longer up") == true)
    #expect(try run("return runs") == [1])
  }

  @Test func aRetryThatWaitsAndFailsAgainStillCounts() async throws {
    try tree.withState { lua in
      try lua.register("later") { (seconds: Int) async throws -> Int in
        await Task.yield()
        return seconds
      }
    }
    // Wait for each alert as an event: the presenter sends its count.
    let (counts, sender) = AsyncStream.makeStream(of: Int.self)
    final class Sender: AlertPresenter, @unchecked Sendable {
      let sender: AsyncStream<Int>.Continuation
      init(_ sender: AsyncStream<Int>.Continuation) { self.sender = sender }
      func present(_ alert: Alert, boundary: View) { sender.yield(alert.count) }
    }
    View.treeLock.withLock { root.environment.alertPresenter = Sender(sender) }
    var presented = counts.makeAsyncIterator()
    try run(
      """
      local saver = ui.root:add(ui.boundary{ id = 'saver', retry = true })
      saver:add(ui.button{ id = 'save', on_tap = function() later(0) error('offline', 0) end }):tap()
      """)
    let saver = try #require(View.treeLock.withLock { root.find("saver") })
    #expect(await presented.next() == 1)
    #expect(
      View.treeLock.withLock { saver.alert?.actions.map(\.label) } == ["Try again", "That sucks"])
    #expect(View.treeLock.withLock { saver.choose("Try again") } == .retried)
    #expect(await presented.next() == 2)
    #expect(
      View.treeLock.withLock { saver.alerts.map(\.description) } == [
        "Error: offline [root/saver/save] ×2 (Try again | That sucks)"
      ])
    await tree.pendingWork.idle()
  }

  @Test func aPluginPressesOnlyItsOwnRecoveryButtons() throws {
    // A script whose ui.root is below the window's top, as a plugin's panel is.
    let panel = try root.add(.boundary(id: "panel", BoundaryConfiguration(isIsolated: true)))
    let plugin = try ScriptedTree(lua: LuaState(sandbox: LuaSandbox()), root: panel)
    try plugin.withState { try $0.register("sync") { _ in throw GoneOffline() } }
    let results = try plugin.run(
      """
      ui.root:add(ui.button{ id = 'b', on_tap = function() sync() end }):tap()
      local ok, err = pcall(ui.root.alert.choose, ui.root.alert, 'Go online')
      ui.root:dismiss()
      ui.root:add(ui.button{ id = 'c', on_tap = function()
        error(ui.error{ message = 'mine', actions = { { 'Fix', function() end } } })
      end }):tap()
      return ok, err, ui.root.alert:choose('Fix'), ui.root.alert == nil
      """, name: "=plugin")
    #expect(results.count == 4)
    #expect(results.first == false)
    #expect(
      (try? String(luaValue: results[1]))?.contains(
        "'Go online' is the host's button; a plugin cannot press it") == true)
    #expect(Array(results.dropFirst(2)) == ["recovered", true])
    plugin.lua.close()
  }

  @Test func longListsAreRefusedBeforeTheyAreCopied() throws {
    let results = try run(
      """
      local s = string.rep('x', 1024 * 1024)
      local t = {}
      for i = 1, 100 do t[i] = s end
      local a = select(2, pcall(ui.error, { message = 'm', actions = t }))
      local b = select(2, pcall(ui.boundary, { reset_keys = t }))
      local c = select(2, pcall(ui.stack, { children = t }))
      return a, b, c
      """)
    #expect(
      results == [
        "ui.error: actions: at most 8 entries, got 100",
        "reset_keys: at most 32 entries, got 100",
        "bad child: view expected, got string",
      ])
  }

  @Test func aHugeMessageIsCutInTheBoxAndTheHistoryKeepsRecords() throws {
    let presenter = TranscriptAlertPresenter { _ in }
    root.environment.alertPresenter = presenter
    try run(
      """
      local b = ui.root:add(ui.boundary{ id = 'b' })
      local big = string.rep('x', 1024 * 1024)
      local crash = b:add(ui.button{ id = 'c', on_tap = function() error(big .. math.random(1e9), 0) end })
      for i = 1, 150 do crash:tap() b:dismiss() end
      """)
    #expect(presenter.history.count == TranscriptAlertPresenter.historyLimit)
    #expect(presenter.history.allSatisfy { $0.error is RecordedError && $0.message.count == 1025 })
    let alert = try #require(presenter.history.last)
    let box = AlertFormatter.box(alert)
    #expect(box.split(separator: "\n").count < 30)
    let big = View.boundary(id: "x")
    big.environment.errorHandler.handle(LongMessage(text: String(repeating: "y", count: 1 << 20)))
    let huge = try #require(big.alert)
    #expect(AlertFormatter.box(huge).contains("… (\((1 << 20) - 4096) more bytes)"))
  }

  /// The plain form shows at most `AlertFormatter.textLimit` bytes of each text, cut at the
  /// end of a character: the alert is shown under the tree lock, and a 50 MB message held
  /// every other script's call into the tree for 3.4 s (a hostile review).
  @Test func thePlainFormShowsABoundedPartOfAHugeMessage() throws {
    let limit = AlertFormatter.textLimit
    let boundary = View.boundary(id: "x")
    // Three bytes a character: the limit falls inside one.
    boundary.environment.errorHandler.handle(
      LongMessage(text: String(repeating: "€", count: limit)))
    let alert = try #require(boundary.alert)
    let plain = AlertFormatter.plain(alert)
    let message = try #require(plain.split(separator: "\n").first { $0.hasPrefix("  message: ") })
    let kept = limit - limit % 3
    #expect(
      message == "  message: " + String(repeating: "€", count: kept / 3)
        + "… (\(3 * limit - kept) more bytes)")
    #expect(alert.message.utf8.count == 3 * limit)
  }
}
