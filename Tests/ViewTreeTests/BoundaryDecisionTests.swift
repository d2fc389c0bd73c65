import Testing
import ViewTree

/// `root/outer/inner/crash`, where `inner` has the given filter.
private func nested(_ filter: @escaping BoundaryFilter) throws -> (
  root: View, outer: View, inner: View, crash: View
) {
  let root = View.window()
  let outer = try root.add(.boundary(id: "outer"))
  let inner = try outer.add(.boundary(id: "inner", BoundaryConfiguration(onError: filter)))
  let crash = try inner.add(throwingButton("crash", Boom("original")))
  return (root, outer, inner, crash)
}

@Suite(.timeLimit(.minutes(30))) struct BoundaryDecisionTests {
  @Test func anErrorRaisedInsideAnIsolatedBoundarysFilterStaysThere() throws {
    let root = View.window()
    var panel: View?
    let inner = throwingButton("inner", Boom("from the filter"))
    panel = try root.add(
      .boundary(
        id: "panel",
        BoundaryConfiguration(
          isIsolated: true,
          onError: { _, _ in
            inner.tap()  // a nested dispatch while this filter runs
            return .handle
          })))
    try panel?.add(inner)
    try panel?.add(throwingButton("crash", Boom("original"))).tap()
    #expect(root.alert == nil)
    let messages = ([panel?.alert].compactMap { $0 } + (panel?.queuedAlerts ?? [])).map(\.message)
    #expect(messages.sorted() == ["boom: from the filter", "boom: original"])
  }

  @Test func anIsolatedBoundaryKeepsWhatItDeclinesEscalatesOrFailsOn() throws {
    let decisions: [BoundaryFilter] = [
      { _, _ in .decline },
      { _, _ in .escalate(Boom("escalated")) },
      { _, _ in throw Boom("filter failed") },
    ]
    var messages: [String] = []
    for filter in decisions {
      let root = View.window()
      let outer = try root.add(.boundary(id: "outer"))
      let panel = try outer.add(
        .boundary(
          id: "panel", BoundaryConfiguration(title: "Plugin", isIsolated: true, onError: filter)))
      try panel.add(throwingButton("crash", Boom("original"))).tap()
      #expect(outer.alert == nil)
      #expect(root.alert == nil)
      #expect(panel.alert?.title == "Plugin")
      messages.append(panel.alert?.message ?? "none")
    }
    #expect(messages[0] == "boom: original")
    #expect(messages[1] == "boom: escalated")
    #expect(messages[2].contains("filter failed"))
  }

  @Test func handleAndTheFilterSeesErrorAndOrigin() throws {
    var seen: [String] = []
    let t = try nested { error, origin in
      seen.append("\(error) from \(origin.path)")
      return .handle
    }
    t.crash.tap()
    #expect(seen == ["boom: original from root/outer/inner/crash"])
    #expect(t.inner.alert?.message == "boom: original")
    #expect(t.outer.alert == nil)
  }

  @Test func declinePassesTheErrorUp() throws {
    let t = try nested { _, _ in .decline }
    t.crash.tap()
    #expect(t.inner.alert == nil)
    #expect(t.outer.alert?.message == "boom: original")
    #expect(t.outer.alert?.path == "root/outer/inner/crash")
  }

  @Test func declineChoosesPerError() throws {
    let t = try nested { error, _ in error is MyError ? .handle : .decline }
    t.crash.tap()
    try t.inner.add(throwingButton("mine", MyError())).tap()
    #expect(t.inner.alert?.message == "MyError()")
    #expect(t.outer.alert?.message == "boom: original")
  }

  @Test func declinedEverywhereReachesTheRootDefault() throws {
    let root = View.window()
    let only = try root.add(.boundary(id: "only", BoundaryConfiguration { _, _ in .decline }))
    try only.add(throwingButton("crash")).tap()
    #expect(only.alert == nil)
    #expect(root.alert?.title == "Unhandled error")
  }

  @Test func aRootBoundaryThatDeclinesStillGetsTheUnhandledAlert() throws {
    let root = View.boundary(id: "top", BoundaryConfiguration { _, _ in .decline })
    try root.add(throwingButton("crash")).tap()
    #expect(root.alert?.title == "Unhandled error")
  }

  @Test func transformPresentsTheReplacementHere() throws {
    let t = try nested { error, _ in .transform(into: Boom("friendly: \(error)")) }
    t.crash.tap()
    #expect(t.inner.alert?.message == "boom: friendly: boom: original")
    #expect(t.inner.alert?.error is Boom)
    #expect(t.outer.alert == nil)
  }

  @Test func escalatePassesTheReplacementUp() throws {
    let t = try nested { _, _ in .escalate(MyError()) }
    t.crash.tap()
    #expect(t.inner.alert == nil)
    #expect(t.outer.alert?.message == "MyError()")
  }

  @Test func aFailingHandlerSendsBothErrorsToTheNextBoundary() throws {
    let t = try nested { _, _ in throw Boom("handler broke") }
    t.crash.tap()
    #expect(t.inner.alert == nil)
    let alert = try #require(t.outer.alert)
    guard
      case .handlerFailed(let boundary, let original, let failure) = alert.error as? ViewTreeError
    else {
      Issue.record("expected handlerFailed, got \(alert.error)")
      return
    }
    #expect(boundary == "root/outer/inner")
    #expect((original as? Boom)?.message == "original")
    #expect((failure as? Boom)?.message == "handler broke")
    #expect(alert.message.contains("handler broke") && alert.message.contains("boom: original"))
    #expect(alert.path == "root/outer/inner/crash")
  }

  @Test func failingHandlersAllTheWayUpEndAtTheRoot() throws {
    let root = View.window()
    var leaf = root
    for level in 0..<3 {
      leaf = try leaf.add(
        .boundary(id: "b\(level)", BoundaryConfiguration { _, _ in throw Boom("b\(level)") }))
    }
    try leaf.add(throwingButton("crash")).tap()
    let alert = try #require(root.alert)
    #expect(alert.isUnhandled)
    // The last handler that failed, and the first error: failures do not nest, so a chain
    // of any length costs the same to describe.
    #expect(alert.message.contains("root/b0 failed: boom: b0"))
    #expect(alert.message.contains("while handling: MyError()"))
    #expect(!alert.message.contains("b2"))
    guard case .handlerFailed(_, let original, _) = alert.error as? ViewTreeError else {
      Issue.record("expected handlerFailed, got \(alert.error)")
      return
    }
    #expect(!(original is ViewTreeError))
  }

  @Test func aFilterThatRaisesThroughItsOwnSubtreeDoesNotLoop() throws {
    var calls = 0
    let root = View.window()
    let outer = try root.add(.boundary(id: "outer"))
    let inner = try outer.add(.boundary(id: "inner"))
    let crash = try inner.add(throwingButton("crash"))
    inner.boundary?.onError = { _, origin in
      calls += 1
      origin.environment.errorHandler.handle(Boom("again"))
      origin.tap()
      return .handle
    }
    crash.tap()
    #expect(calls == 1)
    #expect(inner.alert?.message == "MyError()")
    #expect(outer.alert?.message == "boom: again")
    #expect(outer.queuedAlerts.map(\.message) == ["MyError()"])
  }

  @Test func aFilterThatMovesViewsAroundStillEnds() throws {
    let root = View.window()
    let a = try root.add(.boundary(id: "a"))
    let b = try a.add(.boundary(id: "b"))
    let crash = try b.add(throwingButton("crash"))
    a.boundary?.onError = { [weak root, weak a, weak b] _, _ in
      // Move `b` out and put `a` under it, so the walk up from `a` meets `b` again.
      guard let root, let a, let b else { return .decline }
      b.removeFromParent()
      _ = try? root.add(b)
      _ = try? b.add(a)
      return .decline
    }
    b.boundary?.onError = { _, _ in .decline }
    crash.tap()
    #expect(root.alert?.isUnhandled == true)
    #expect(a.parent === b && b.parent === root)
  }
}
