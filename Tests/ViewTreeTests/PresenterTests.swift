import Testing
import ViewTree

/// A presenter that dismisses every alert as soon as it sees it, and re-raises once.
private final class ImpatientPresenter: AlertPresenter {
  var shown: [String] = []
  var raised = false

  func present(_ alert: Alert, boundary: View) {
    shown.append(alert.message)
    if !raised {
      raised = true
      boundary.environment.errorHandler.handle(Boom("from presenter"))
    }
    boundary.dismiss()
  }
}

@Suite(.timeLimit(.minutes(30))) struct PresenterTests {
  @Test func aPresenterSetOnTheWindowServesEveryBoundary() throws {
    let presenter = RecordingAlertPresenter()
    let root = View.window()
    root.environment.alertPresenter = presenter
    let a = try root.add(.boundary(id: "a"))
    let b = try root.add(.stack(id: "s")).add(.boundary(id: "b"))
    try a.add(throwingButton("x")).tap()
    try b.add(throwingButton("y")).tap()
    #expect(
      presenter.transcript == [
        "present root/a: Error: MyError() [root/a/x] (That sucks)",
        "present root/s/b: Error: MyError() [root/s/b/y] (That sucks)",
      ])
  }

  @Test func recordsPresentCountAndDismiss() throws {
    let t = try seedTree()
    t.crash.tap()
    t.crash.tap()
    t.guardView.dismiss()
    #expect(t.presenter.events.count == 3)
    guard case .countChanged(let counted, "root/guard") = t.presenter.events[1],
      case .dismissed(let dismissed, "root/guard") = t.presenter.events[2]
    else {
      Issue.record("unexpected events \(t.presenter.transcript)")
      return
    }
    #expect(counted.count == 2 && dismissed.count == 2)
    t.presenter.removeAll()
    #expect(t.presenter.events.isEmpty)
  }

  @Test func aPresenterThatRaisesAndDismissesDoesNotRecurseForever() throws {
    let presenter = ImpatientPresenter()
    let t = try seedTree()
    t.root.environment.alertPresenter = presenter
    t.crash.tap()
    #expect(presenter.shown == ["MyError()", "boom: from presenter"])
    #expect(!t.guardView.isPresented)
  }

  @Test func theRecorderDoesNotKeepTheTreeAlive() throws {
    let presenter = RecordingAlertPresenter()
    weak var weakRoot: View?
    do {
      let root = View.window()
      root.environment.alertPresenter = presenter
      try root.add(throwingButton("crash")).tap()
      weakRoot = root
    }
    #expect(weakRoot == nil)
    #expect(presenter.presented.first?.path == "root/crash")
  }
}
