import Testing
import ViewTree

@Suite(.timeLimit(.minutes(15))) struct LifetimeTests {
  @Test func aDroppedTreeWithActionsDeinitialises() throws {
    let counter = DeinitCounter()
    var weakViews: [() -> View?] = []
    do {
      let t = try seedTree()
      let token = counter.token()
      t.crash.onTap = { view in
        _ = token
        view.environment.errorHandler { throw MyError() }
      }
      let field = try t.guardView.add(.textField { _ in _ = token })
      t.crash.tap()
      for view in [t.root, t.guardView, t.crash, field] { weakViews.append { [weak view] in view } }
    }
    #expect(weakViews.allSatisfy { $0() == nil })
    #expect(counter.count == 1)
  }

  @Test func actionsHoldingTheirErrorHandlerDoNotLeak() throws {
    weak var weakRoot: View?
    weak var weakButton: View?
    do {
      let root = View.window()
      let button = try root.add(.button("Go", id: "go"))
      let handler = button.environment.errorHandler
      button.onTap = { _ in handler { throw MyError() } }
      button.tap()
      #expect(root.alert != nil)
      weakRoot = root
      weakButton = button
    }
    #expect(weakRoot == nil)
    #expect(weakButton == nil)
  }

  @Test func aMountedComponentTreeDeinitialises() throws {
    let counter = DeinitCounter()
    weak var weakRoot: View?
    weak var weakButton: View?
    do {
      let token = counter.token()
      let root = Window {
        ContentView()
        Button("Keep", id: "keep") { _ in _ = token }
      }.makeView()
      try #require(root.find("button")).tap()
      weakRoot = root
      weakButton = root.find("button")
    }
    #expect(weakRoot == nil)
    #expect(weakButton == nil)
    #expect(counter.count == 1)
  }

  @Test func alertsDoNotKeepTheirOriginAlive() throws {
    let root = View.window()
    weak var weakCrash: View?
    do {
      let crash = try root.add(throwingButton("crash"))
      crash.tap()
      crash.removeFromParent()
      weakCrash = crash
    }
    #expect(weakCrash == nil)
    #expect(root.alert?.path == "root/crash")
  }
}
