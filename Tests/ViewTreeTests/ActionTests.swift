import Testing
import ViewTree

@Suite(.timeLimit(.minutes(30))) struct ActionTests {
  @Test func tapRunsTheActionWithItsView() throws {
    let root = View.window()
    var tapped: [String] = []
    let button = try root.add(.button("Go", id: "go") { view in tapped.append(view.path) })
    #expect(button.tap())
    #expect(tapped == ["root/go"])
    #expect(!View.text("no action").tap())
  }

  @Test func setValueRunsOnChangeOnlyWhenTheValueChanges() throws {
    let root = View.window()
    var seen: [String] = []
    let field = try root.add(.textField("Name", id: "name") { view in seen.append(view.value) })
    #expect(field.setValue("Ada"))
    #expect(field.setValue("Ada"))
    #expect(field.setValue("Grace"))
    #expect(seen == ["Ada", "Grace"])
  }

  @Test func aThrowingOnChangeGoesToTheBoundaryAndKeepsTheValue() throws {
    let t = try seedTree()
    let field = try #require(t.crash.parent).add(
      .textField("Age", id: "age") { view in
        guard Int(view.value) != nil else { throw Boom("not a number: \(view.value)") }
      })
    #expect(field.setValue("42"))
    #expect(!field.setValue("forty"))
    #expect(field.value == "forty")
    #expect(t.guardView.alert?.message == "boom: not a number: forty")
    #expect(t.guardView.alert?.path == "root/guard/deep/age")
  }

  /// The error of an action that removed its own view goes up the chain it was raised in,
  /// to the boundary the view was under (it used to stay on the removed view, presented to
  /// no one: a plugin could hide its errors from its panel that way).
  @Test func aViewRemovedByItsOwnActionThatThenThrowsGoesToTheBoundaryItWasUnder() throws {
    let t = try seedTree()
    t.crash.onTap = { view in
      view.removeFromParent()
      throw Boom("after removal")
    }
    #expect(!t.crash.tap())
    #expect(t.guardView.alert?.message == "boom: after removal")
    #expect(t.root.alert == nil)
    #expect(t.crash.alert == nil)
    #expect(t.presenter.events.count == 1)
  }

  @Test func aViewMovedByItsOwnActionIsCaughtWhereItNowIs() throws {
    let t = try seedTree()
    let other = try t.root.add(.boundary(id: "other"))
    t.crash.onTap = { view in
      // Found through the view, not captured: capturing `other` would be a cycle.
      guard let other = view.root.find("other") else { return }
      try view.move(to: other)
      throw Boom("moved")
    }
    t.crash.tap()
    #expect(other.alert?.path == "root/other/crash")
    #expect(t.guardView.alert == nil)
  }

  @Test func anActionMayDropTheLastReferenceToItsOwnView() throws {
    let counter = DeinitCounter()
    let root = View.window()
    weak var weakCrash: View?
    do {
      let token = counter.token()
      let crash = try root.add(
        .button("Crash", id: "crash") { view in
          _ = token
          view.onTap = nil
          view.removeFromParent()
          throw MyError()
        })
      weakCrash = crash
    }
    try #require(root.find("crash")).tap()
    #expect(weakCrash == nil)
    #expect(counter.count == 1)
    // The error went up from where the view was: the root's default handler.
    #expect(root.alert?.isUnhandled == true)
  }

  @Test func performRunsAnyClosureThroughTheHandler() throws {
    let t = try seedTree()
    #expect(t.crash.perform { _ in })
    #expect(!t.crash.perform { view in throw Boom(view.id) })
    #expect(t.guardView.alert?.message == "boom: crash")
  }
}
