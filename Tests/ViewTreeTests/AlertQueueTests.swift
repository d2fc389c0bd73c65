import Testing
import ViewTree

@Suite(.timeLimit(.minutes(30))) struct AlertQueueTests {
  @Test func newErrorsQueueWhileOneIsShown() throws {
    let t = try seedTree()
    let handler = t.guardView.environment.errorHandler
    handler.handle(Boom("1"))
    handler.handle(Boom("2"))
    handler.handle(Boom("3"))
    #expect(t.guardView.alert?.message == "boom: 1")
    #expect(t.guardView.queuedAlerts.map(\.message) == ["boom: 2", "boom: 3"])
    #expect(t.presenter.presented.count == 1)

    #expect(t.guardView.dismiss()?.message == "boom: 1")
    #expect(t.guardView.alert?.message == "boom: 2")
    #expect(t.presenter.presented.map(\.message) == ["boom: 1", "boom: 2"])
    t.guardView.dismissAll()
    #expect(!t.guardView.isPresented)
    #expect(t.guardView.dismiss() == nil)
    #expect(t.presenter.presented.map(\.message) == ["boom: 1", "boom: 2", "boom: 3"])
  }

  @Test func repeatsCountInsteadOfStacking() throws {
    let t = try seedTree()
    for _ in 0..<5 { t.crash.tap() }
    #expect(t.guardView.alert?.count == 5)
    #expect(t.guardView.queuedAlerts.isEmpty)
    #expect(
      t.guardView.alert?.description == "Error: MyError() [root/guard/deep/crash] ×5 (That sucks)")
    #expect(t.presenter.presented.count == 1)
    #expect(t.presenter.transcript.last?.hasPrefix("count root/guard:") == true)
  }

  @Test func aRepeatOfAQueuedAlertCountsThere() throws {
    let t = try seedTree()
    let other = try #require(t.crash.parent).add(throwingButton("other", Boom("x")))
    t.crash.tap()
    other.tap()
    other.tap()
    #expect(t.guardView.alert?.count == 1)
    #expect(t.guardView.queuedAlerts.map(\.count) == [2])
  }

  @Test func sameMessageFromAnotherPathIsASeparateAlert() throws {
    let t = try seedTree()
    let twin = try #require(t.crash.parent).add(throwingButton("twin"))
    t.crash.tap()
    twin.tap()
    #expect(t.guardView.alert?.count == 1)
    #expect(t.guardView.queuedAlerts.map(\.path) == ["root/guard/deep/twin"])
  }

  @Test func theSameViewMovedElsewhereIsASeparateAlert() throws {
    let t = try seedTree()
    let deep = try #require(t.crash.parent)
    let other = try t.guardView.add(.stack(id: "other"))
    t.crash.tap()
    try t.crash.move(to: other)
    t.crash.tap()
    try t.crash.move(to: deep)
    t.crash.tap()
    #expect(t.guardView.alert?.count == 2)
    #expect(t.guardView.queuedAlerts.map(\.path) == ["root/guard/other/crash"])
  }

  @Test func afterDismissalTheSameErrorIsNew() throws {
    let t = try seedTree()
    t.crash.tap()
    t.guardView.dismiss()
    t.crash.tap()
    #expect(t.guardView.alert?.count == 1)
  }

  @Test func theQueueIsBounded() throws {
    let t = try seedTree()
    let handler = t.guardView.environment.errorHandler
    for index in 0..<(View.alertQueueLimit + 7) { handler.handle(Boom("\(index)")) }
    #expect(t.guardView.queuedAlerts.count == View.alertQueueLimit - 1)
    #expect(t.guardView.droppedAlertCount == 7)
  }

  @Test func detailedErrorsSupplyMessageLocationAndTraceback() throws {
    let t = try seedTree()
    t.crash.onTap = { _ in throw ScriptError() }
    t.crash.tap()
    let alert = try #require(t.guardView.alert)
    #expect(alert.message == "main.lua:3: attempt to index a nil value")
    #expect(alert.sourceLocation == "main.lua:3")
    #expect(alert.traceback?.hasPrefix("stack traceback:") == true)
  }

  @Test func plainErrorsHaveNoLocation() throws {
    let t = try seedTree()
    t.crash.tap()
    #expect(t.guardView.alert?.sourceLocation == nil)
    #expect(t.guardView.alert?.traceback == nil)
  }

  @Test func aFailedHandlerKeepsTheScriptLocation() throws {
    let root = View.window()
    let failing = try root.add(
      .boundary(id: "f", BoundaryConfiguration { _, _ in throw MyError() }))
    try failing.add(View.button("Run", id: "run") { _ in throw ScriptError() }).tap()
    let alert = try #require(root.alert)
    #expect(alert.sourceLocation == "main.lua:3")
    #expect(alert.traceback?.contains("main.lua:3: in main chunk") == true)
  }

  @Test func customTitleAndDismissLabel() throws {
    let root = View.window()
    let guardView = try root.add(
      .boundary(id: "g", BoundaryConfiguration(title: "Oops", dismissLabel: "OK")))
    try guardView.add(throwingButton("crash")).tap()
    #expect(guardView.alert?.title == "Oops")
    #expect(guardView.alert?.dismissLabel == "OK")
  }
}
