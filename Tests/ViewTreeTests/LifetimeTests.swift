import Foundation
import Testing
import ViewTree

@Suite(.timeLimit(.minutes(30))) struct LifetimeTests {
  /// A parent's last reference dropped on another thread while this one, under the tree
  /// lock, holds a child and walks up from it (a plugin freed off the lock drops its panel
  /// while a tap of the panel's button runs). The parent's strong count is 0 while its
  /// deinit waits for the lock: the child's `parent` must read `nil` there, and the walks
  /// that use it (the root, the environment, error delivery) must treat the child as
  /// detached, never stop the process.
  @Test func aParentFreedOnAnotherThreadReadsAsNilFromItsChild() throws {
    final class Holder: @unchecked Sendable { var view: View? }
    let holder = Holder()
    holder.view = View.window()
    let button = try holder.view!.add(.button("Go", id: "go"))
    weak let probe = holder.view
    let released = DispatchSemaphore(value: 0)
    View.treeLock.withLock {
      Thread {
        holder.view = nil  // the last reference: the deinit then waits for the lock
        released.signal()
      }.start()
      // Until the other thread has dropped it: a weak read gives nil from the moment the
      // strong count reaches 0, while the deinit cannot yet take the lock.
      while probe != nil { sched_yield() }
      #expect(button.parent == nil)
      #expect(button.root === button)
      button.environment.errorHandler { throw MyError() }
    }
    released.wait()
    #expect(button.parent == nil)
  }

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
