import Foundation
import Testing
import ViewTree

/// A Swift error with two recovery options; the second one works.
private final class DiskFull: RecoverableError, CustomStringConvertible, @unchecked Sendable {
  var attempts: [Int] = []
  var recoveryOptions: [String] { ["Free space", "Use another disk"] }
  func attemptRecovery(optionIndex: Int) -> Bool {
    attempts.append(optionIndex)
    return optionIndex == 1
  }
  var description: String { "disk full" }
}

/// A button that fails until it has run `failures` times.
private func flakyButton(failures: Int, runs: Counter) -> View {
  View.button("Save", id: "save") { _ in
    runs.value += 1
    if runs.value <= failures { throw Boom("busy") }
  }
}

private final class Counter { var value = 0 }

@Suite(.timeLimit(.minutes(30))) struct AlertRecoveryTests {
  @Test func aRecoverableErrorGetsAButtonPerOptionBeforeTheDismissButton() throws {
    let root = View.window()
    let guardView = try root.add(.boundary(id: "guard"))
    let error = DiskFull()
    try guardView.add(throwingButton("save", error)).tap()
    let alert = try #require(guardView.alert)
    #expect(alert.actions.map(\.label) == ["Free space", "Use another disk", "That sucks"])
    #expect(alert.actions.map(\.role) == [.recovery, .recovery, .dismiss])
    #expect(
      alert.description
        == "Error: disk full [root/guard/save] (Free space | Use another disk | That sucks)")
    // An option that does not recover leaves the alert up; one that does dismisses it.
    #expect(guardView.choose("Free space") == .notRecovered)
    #expect(guardView.alert != nil)
    #expect(guardView.choose(at: 1) == .recovered)
    #expect(guardView.alert == nil)
    #expect(error.attempts == [0, 1])
  }

  @Test func theSeedAlertKeepsItsOneButton() throws {
    let seed = try seedTree()
    seed.crash.tap()
    let alert = try #require(seed.guardView.alert)
    #expect(alert.actions.map(\.label) == ["That sucks"])
    #expect(alert.description == "Error: MyError() [root/guard/deep/crash] (That sucks)")
    #expect(seed.guardView.choose("That sucks") == .dismissed)
    #expect(seed.guardView.alert == nil)
    #expect(seed.guardView.choose("That sucks") == .notFound)
  }

  @Test func tryAgainRunsTheTapAgainAndCountsEachNewFailure() throws {
    let root = View.window()
    let saver = try root.add(.boundary(id: "saver", BoundaryConfiguration(offersRetry: true)))
    let runs = Counter()
    try saver.add(flakyButton(failures: 2, runs: runs)).tap()
    #expect(saver.alert?.actions.map(\.label) == ["Try again", "That sucks"])
    #expect(saver.alert?.count == 1)
    #expect(saver.choose("Try again") == .retried)
    #expect(runs.value == 2)
    #expect(saver.alert?.count == 2)
    #expect(saver.choose("Try again") == .retried)
    #expect(runs.value == 3)
    #expect(saver.alert == nil)
  }

  @Test func aBoundaryWithoutRetryOffersNoTryAgain() throws {
    let root = View.window()
    let plain = try root.add(.boundary(id: "plain"))
    try plain.add(throwingButton("crash")).tap()
    #expect(plain.alert?.actions.map(\.label) == ["That sucks"])
    // Nor does a retrying boundary for an error routed without its work.
    let saver = try root.add(.boundary(id: "saver", BoundaryConfiguration(offersRetry: true)))
    saver.environment.errorHandler.handle(Boom("no work"))
    #expect(saver.alert?.actions.map(\.label) == ["That sucks"])
  }

  @Test func tryAgainRunsTheErrorHandlerBodyAgain() throws {
    let root = View.window()
    let saver = try root.add(
      .boundary(id: "saver", BoundaryConfiguration(offersRetry: true, retryLabel: "Retry")))
    let button = try saver.add(View.button("Save", id: "save"))
    let runs = Counter()
    let handler = button.environment.errorHandler
    let result = handler { () throws -> Int in
      runs.value += 1
      if runs.value < 2 { throw Boom("busy") }
      return runs.value
    }
    #expect(result == nil)
    #expect(saver.alert?.actions.map(\.label) == ["Retry", "That sucks"])
    #expect(saver.choose("Retry") == .retried)
    #expect(runs.value == 2)
    #expect(saver.alert == nil)
  }

  @Test func tryAgainRestartsAsyncWorkAndItsNewFailureCounts() async throws {
    let root = View.window()
    let saver = try root.add(.boundary(id: "saver", BoundaryConfiguration(offersRetry: true)))
    let button = try saver.add(View.button("Save", id: "save"))
    let presented = AsyncStream.makeStream(of: Int.self)
    final class Recorder: AlertPresenter, @unchecked Sendable {
      let continuation: AsyncStream<Int>.Continuation
      init(_ continuation: AsyncStream<Int>.Continuation) { self.continuation = continuation }
      func present(_ alert: Alert, boundary: View) { continuation.yield(alert.count) }
    }
    root.environment.alertPresenter = Recorder(presented.continuation)
    var counts = presented.stream.makeAsyncIterator()
    View.treeLock.withLock {
      _ = button.environment.errorHandler { () async throws in throw Boom("offline") }
    }
    #expect(await counts.next() == 1)
    #expect(View.treeLock.withLock { saver.choose("Try again") } == .retried)
    #expect(await counts.next() == 2)
  }

  @Test func resetRemovesTheChildrenAndOnResetRebuildsThem() throws {
    let root = View.window()
    var resets = 0
    let panel = try root.add(
      .boundary(
        id: "panel",
        BoundaryConfiguration(onReset: { boundary in
          resets += 1
          try boundary.add(View.button("Fresh", id: "fresh"))
        })))
    let old = try panel.add(throwingButton("crash"))
    old.tap()
    old.tap()
    #expect(panel.alert?.actions.map(\.label) == ["Reset", "That sucks"])
    #expect(panel.choose("Reset") == .reset)
    #expect(resets == 1)
    #expect(panel.alert == nil)
    #expect(panel.children.map(\.id) == ["fresh"])
    #expect(old.parent == nil)
  }

  @Test func aFailingOnResetGoesUpFromTheBoundarysParent() throws {
    let root = View.window()
    let outer = try root.add(.boundary(id: "outer"))
    let panel = try outer.add(
      .boundary(id: "panel", BoundaryConfiguration(onReset: { _ in throw Boom("cannot rebuild") })))
    try panel.add(throwingButton("crash")).tap()
    panel.reset()
    #expect(panel.alert == nil)
    #expect(outer.alert?.message == "boom: cannot rebuild")
    #expect(outer.alert?.path == "root/outer")
  }

  @Test func changingAResetKeyResetsABoundaryThatShowsAnAlert() throws {
    let root = View.window()
    var resets = 0
    let editor = try root.add(
      .boundary(
        id: "editor",
        BoundaryConfiguration(resetKeys: ["document"], onReset: { _ in resets += 1 })))
    root.environment[named: "document"] = "a.txt"
    #expect(resets == 0, "no alert up: nothing to reset")
    try editor.add(throwingButton("crash")).tap()
    root.environment[named: "document"] = "a.txt"
    #expect(resets == 0, "the same value is no change")
    #expect(editor.alert != nil)
    root.environment[named: "theme"] = "dark"
    #expect(resets == 0, "a name the boundary does not watch")
    root.environment[named: "document"] = "b.txt"
    #expect(resets == 1)
    #expect(editor.alert == nil)
  }

  @Test func aResetKeySetBelowTheChangeHidesIt() throws {
    let root = View.window()
    let middle = try root.add(.stack(id: "middle"))
    middle.environment[named: "document"] = "pinned"
    let editor = try middle.add(
      .boundary(id: "editor", BoundaryConfiguration(resetKeys: ["document"])))
    try editor.add(throwingButton("crash")).tap()
    root.environment[named: "document"] = "other"
    #expect(editor.alert != nil, "middle's own value hides the root's change")
    middle.environment[named: "document"] = "changed"
    #expect(editor.alert == nil, "without onReset, a reset dismisses the alerts")
  }

  @Test func theHandlerChainSaysWhatEachBoundaryDid() throws {
    let root = View.window()
    let outer = try root.add(.boundary(id: "outer"))
    let middle = try outer.add(
      .boundary(id: "middle", BoundaryConfiguration { _, _ in .escalate(Boom("wrapped")) }))
    let inner = try middle.add(.boundary(id: "inner", BoundaryConfiguration { _, _ in .decline }))
    try inner.add(throwingButton("crash")).tap()
    let alert = try #require(outer.alert)
    #expect(
      alert.handlerChain.chainDescription == "inner declined · middle escalated · outer presented")
    #expect(
      alert.handlerChain.map(\.path) == [
        "root/outer/middle/inner", "root/outer/middle", "root/outer",
      ])
    #expect(alert.message == "boom: wrapped")
  }

  @Test func anUnhandledErrorsChainEndsAtTheRoot() throws {
    let root = View.window()
    let inner = try root.add(.boundary(id: "inner", BoundaryConfiguration { _, _ in .decline }))
    try inner.add(throwingButton("crash")).tap()
    #expect(root.alert?.handlerChain.chainDescription == "inner declined · root unhandled")
    let failing = try root.add(
      .boundary(id: "failing", BoundaryConfiguration { _, _ in throw Boom("filter") }))
    try failing.add(throwingButton("crash")).tap()
    #expect(root.alerts.last?.handlerChain.chainDescription == "failing failed · root unhandled")
  }

  @Test func anIsolatedBoundaryPresentsWhatItDeclines() throws {
    let root = View.window()
    let panel = try root.add(
      .boundary(id: "panel", BoundaryConfiguration(isIsolated: true) { _, _ in .decline }))
    try panel.add(throwingButton("crash")).tap()
    #expect(panel.alert?.handlerChain.chainDescription == "panel declined · panel presented")
  }

  @Test func aFilterCanOfferActions() throws {
    let root = View.window()
    var opened = 0
    let guardView = try root.add(
      .boundary(
        id: "guard",
        BoundaryConfiguration(offersRetry: true) { _, _ in
          .offer([
            AlertAction("Open log") {
              opened += 1
              return true
            }
          ])
        }))
    try guardView.add(throwingButton("crash")).tap()
    #expect(guardView.alert?.actions.map(\.label) == ["Open log", "Try again", "That sucks"])
    #expect(guardView.choose("Open log") == .recovered)
    #expect(opened == 1)
  }

  @Test func aThrowingRecoveryActionRaisesItsOwnAlertAndKeepsTheFirst() throws {
    let root = View.window()
    let guardView = try root.add(
      .boundary(
        id: "guard",
        BoundaryConfiguration { _, _ in .offer([AlertAction("Fix") { throw Boom("fix failed") }]) })
    )
    try guardView.add(throwingButton("crash")).tap()
    #expect(guardView.choose("Fix") == .notRecovered)
    #expect(guardView.alerts.map(\.message) == ["MyError()", "boom: fix failed"])
  }

  @Test func actionsAreCappedAndLabelsClipped() throws {
    let root = View.window()
    let many = (0..<20).map { index in
      AlertAction("Option \(index) " + String(repeating: "x", count: 100)) { true }
    }
    let guardView = try root.add(
      .boundary(id: "guard", BoundaryConfiguration { _, _ in .offer(many) }))
    try guardView.add(throwingButton("crash")).tap()
    let actions = try #require(guardView.alert?.actions)
    #expect(actions.count == AlertAction.limit + 1)
    #expect(actions.allSatisfy { $0.label.count <= AlertAction.labelLimit })
    #expect(actions.first?.label.hasSuffix("…") == true)
  }

  @Test func theErrorLogSeesEveryRoutedErrorHandledOrNot() throws {
    let root = View.window()
    var entries: [ErrorLogEntry] = []
    root.environment.errorLog = { entries.append($0) }
    let guardView = try root.add(.boundary(id: "guard"))
    let crash = try guardView.add(throwingButton("crash"))
    crash.tap()
    crash.tap()  // counted ×2, logged again
    try root.add(throwingButton("loose")).tap()
    #expect(entries.count == 3)
    #expect(entries.map(\.originPath) == ["root/guard/crash", "root/guard/crash", "root/loose"])
    #expect(entries.map(\.boundaryPath) == ["root/guard", "root/guard", "root"])
    #expect(entries.map(\.isUnhandled) == [false, false, true])
    #expect(entries[2].handlerChain.chainDescription == "root unhandled")
    #expect(entries[0].message == "MyError()")
  }

  @Test func theErrorLogSeesErrorsWhoseAlertsWereDropped() throws {
    let root = View.window()
    var logged = 0
    root.environment.errorLog = { _ in logged += 1 }
    let guardView = try root.add(.boundary(id: "guard"))
    for index in 0..<(View.alertQueueLimit + 5) {
      try guardView.add(throwingButton("b\(index)")).tap()
    }
    #expect(guardView.droppedAlertCount == 5)
    #expect(logged == View.alertQueueLimit + 5)
  }

  @Test func aFilterThatDetachesItsOwnAncestorCannotLoseTheError() throws {
    // Found by attacking: the walk followed live parents, so a plugin's filter that
    // removed its own ancestor sent the error to a detached top with no presenter.
    let root = View.window()
    let panel = try root.add(.boundary(id: "panel", BoundaryConfiguration(isIsolated: true)))
    let middle = try panel.add(.stack(id: "middle"))
    let filter = try middle.add(
      .boundary(
        id: "filter",
        BoundaryConfiguration { [weak middle] _, _ in  // weak: middle holds this filter
          middle?.removeFromParent()
          return .decline
        }))
    try filter.add(throwingButton("crash")).tap()
    #expect(panel.alerts.count == 1)
    #expect(middle.alerts.isEmpty)
    #expect(panel.alert?.handlerChain.chainDescription == "filter declined · panel presented")
  }

  @Test func aDeepChainKeepsSixteenStepsAndPaysForThem() throws {
    final class Account: MemoryAccount, @unchecked Sendable {
      var used = 0
      func charge(_ bytes: Int, overdraft: Bool) -> Bool {
        used += bytes
        return true
      }
      func release(_ bytes: Int) { used -= bytes }
    }
    let root = View.window()
    var node = root
    for level in 0..<200 {
      node = try node.add(
        .boundary(id: "level\(level)", BoundaryConfiguration { _, _ in .decline }))
    }
    let account = Account()
    let crash = try node.add(throwingButton("crash"))
    crash.memoryAccount = account
    crash.tap()
    let chain = try #require(root.alert?.handlerChain)
    #expect(chain.count == 16)
    #expect(chain[14].boundary == "…")
    #expect(chain.last?.decision == .unhandled)
    #expect(account.used > chain.reduce(0) { $0 + $1.path.utf8.count })
  }
}
