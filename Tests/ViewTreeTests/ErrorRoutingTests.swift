import Testing
import ViewTree

@Suite(.timeLimit(.minutes(30))) struct ErrorRoutingTests {
  @Test func theSeedTreePresentsAtTheNearestBoundary() throws {
    let t = try seedTree()
    #expect(!t.crash.tap())
    let alert = try #require(t.guardView.alert)
    #expect(alert.title == "Error")
    #expect(alert.message == "MyError()")
    #expect(alert.dismissLabel == "That sucks")
    #expect(alert.path == "root/guard/deep/crash")
    #expect(alert.error is MyError)
    #expect(!alert.isUnhandled)
    #expect(t.guardView.isPresented)
    #expect(!t.root.isPresented)
    #expect(
      t.presenter.transcript == [
        "present root/guard: Error: MyError() [root/guard/deep/crash] (That sucks)"
      ])
  }

  @Test(arguments: [0, 1, 5, 40])
  func nearestBoundaryWinsAtAnyDepth(gap: Int) throws {
    let root = View.window()
    let outer = try root.add(.boundary(id: "outer"))
    let inner = try outer.add(.boundary(id: "inner"))
    var leaf = inner
    for level in 0..<gap { leaf = try leaf.add(.stack(id: "s\(level)")) }
    let crash = try leaf.add(throwingButton("crash"))
    crash.tap()
    #expect(inner.alert?.path == crash.path)
    #expect(outer.alert == nil)
    #expect(root.alert == nil)
  }

  /// An action that removes its own view, or an ancestor of it, and then throws: the error
  /// still goes up the chain it was raised in, to the boundary the view was under (before,
  /// it stayed in the removed subtree, where no one saw it). A view moved within its tree
  /// routes from where it is now.
  @Test(arguments: ["itself", "its parent", "everything", "moved"])
  func anActionThatRemovesItsViewStillReachesItsBoundary(removes what: String) throws {
    let t = try seedTree()
    let holder = try t.guardView.add(.stack(id: "holder"))
    let button = try holder.add(
      .button("Go", id: "go") { view in
        switch what {
        case "itself": view.removeFromParent()
        case "its parent": view.parent?.removeFromParent()
        case "everything": view.root.find("guard")?.removeAllChildren()
        default: try view.move(to: view.root)
        }
        throw MyError()
      })
    #expect(!button.tap())
    if what == "moved" {
      #expect(t.guardView.alert == nil)
      #expect(t.root.alert?.message == "MyError()")
    } else {
      #expect(t.guardView.alert?.message == "MyError()")
      #expect(button.alert == nil && holder.alert == nil)
    }
  }

  @Test func siblingBoundariesAreUntouched() throws {
    let root = View.window()
    let left = try root.add(.boundary(id: "left"))
    let right = try root.add(.boundary(id: "right"))
    let crash = try left.add(throwingButton("crash"))
    try right.add(.button("Fine", id: "fine") { _ in })
    crash.tap()
    #expect(left.alert != nil)
    #expect(right.alert == nil)
    #expect(try #require(right.find("fine")).tap())
    #expect(right.alert == nil)
  }

  @Test func addingABoundaryShadowsAndRemovingItUnshadows() throws {
    let root = View.window()
    let outer = try root.add(.boundary(id: "outer"))
    let panel = try outer.add(.stack(id: "panel"))
    let crash = try panel.add(throwingButton("crash", Boom("one")))
    crash.tap()
    #expect(outer.alert?.message == "boom: one")
    outer.dismiss()

    let inner = try outer.insert(.boundary(id: "inner"), at: 0)
    try panel.move(to: inner)
    crash.tap()
    #expect(inner.alert?.path == "root/outer/inner/panel/crash")
    #expect(outer.alert == nil)

    try panel.move(to: outer)
    inner.removeFromParent()
    crash.tap()
    #expect(outer.alert?.path == "root/outer/panel/crash")
    #expect(inner.queuedAlerts.isEmpty)
  }

  @Test func turningAViewIntoABoundaryAndBack() throws {
    let t = try seedTree()
    let deep = try #require(t.crash.parent)
    deep.boundary = BoundaryConfiguration(title: "Deep trouble")
    t.crash.tap()
    #expect(deep.alert?.title == "Deep trouble")
    deep.boundary = nil
    t.crash.tap()
    #expect(t.guardView.alert?.title == "Error")
    #expect(t.root.alert == nil)
  }

  @Test func withNoBoundaryTheRootDefaultPresentsUnhandledError() throws {
    let presenter = RecordingAlertPresenter()
    let root = View.window()
    root.environment.alertPresenter = presenter
    let crash = try root.add(.stack(id: "panel")).add(throwingButton("crash"))
    crash.tap()
    let alert = try #require(root.alert)
    #expect(alert.title == "Unhandled error")
    #expect(alert.isUnhandled)
    #expect(alert.message == "MyError()")
    #expect(alert.path == "root/panel/crash")
    #expect(presenter.presented.count == 1)
  }

  @Test func errorHandlerReadWithoutABoundaryRoutesToTheRoot() throws {
    let root = View.window()
    let leaf = try root.add(.text("x", id: "leaf"))
    let handler = leaf.environment.errorHandler
    #expect(handler.handle(Boom("direct")))
    #expect(root.alert?.message == "boom: direct")
    #expect(root.alert?.path == "root/leaf")
  }

  @Test func aBoundaryCatchesErrorsRaisedAtItself() throws {
    let t = try seedTree()
    t.guardView.environment.errorHandler { throw Boom("self") }
    #expect(t.guardView.alert?.path == "root/guard")
  }

  @Test func aHandlerWhoseViewIsGoneDropsTheError() {
    var handler = ErrorHandler(origin: nil)
    do {
      let view = View.stack()
      handler = view.environment.errorHandler
      #expect(handler.origin === view)
    }
    #expect(handler.origin == nil)
    #expect(!handler.handle(MyError()))
    #expect(handler { throw MyError() } == nil)
  }

  @Test func errorHandlerForms() throws {
    let t = try seedTree()
    let handler = t.crash.environment.errorHandler
    #expect(handler.handle { throw Boom("a") } == nil)
    #expect(handler { throw Boom("b") } == nil)
    #expect(handler.handle(Boom("c")))
    #expect(handler { () throws -> Int in 7 } == 7)
    #expect(handler { () throws -> Int in throw Boom("d") } == nil)
    #expect(handler.handle {} != nil)
    let messages = [t.guardView.alert?.message] + t.guardView.queuedAlerts.map(\.message)
    #expect(messages == ["boom: a", "boom: b", "boom: c", "boom: d"])
  }
}
