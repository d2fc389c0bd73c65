import Testing
import ViewTree

/// `ErrorBoundary` in the component DSL says what `BoundaryConfiguration` can (issue 24,
/// item 7): retry and its label, reset (with the content built again), reset keys, a
/// filter and isolation, as modifiers.
@Suite(.timeLimit(.minutes(30))) struct ErrorBoundaryModifierTests {
  final class Counter: @unchecked Sendable {
    // Touched under the tree lock only (actions and resets run holding it).
    var value = 0
  }

  @Test func retryOffersItsLabelAndRunsTheWorkAgain() throws {
    let attempts = Counter()
    let root = Window(id: "app") {
      ErrorBoundary(id: "guard") {
        Button("Save", id: "save") { _ in
          attempts.value += 1
          throw MyError()
        }
      }.retry("Save again")
    }.makeView()
    let boundary = try #require(root.find("guard"))
    #expect(try #require(root.find("save")).tap() == false)  // it failed
    #expect(boundary.alert?.actions.map(\.label) == ["Save again", "That sucks"])
    #expect(boundary.choose("Save again") == .retried)
    #expect(View.treeLock.withLock { attempts.value } == 2)
    #expect(boundary.alert?.count == 2)
  }

  @Test func onResetRunsItsActionAndBuildsTheContentAgain() throws {
    let resets = Counter()
    let root = Window(id: "app") {
      ErrorBoundary(id: "guard") {
        Text("fresh", id: "note")
        Button("Break", id: "break") { view in
          view.parent?.find("note")?.text = "spoiled"
          throw MyError()
        }
      }.onReset("Start over") { resets.value += 1 }
    }.makeView()
    let boundary = try #require(root.find("guard"))
    #expect(try #require(root.find("break")).tap() == false)  // it failed
    #expect(root.find("note")?.text == "spoiled")
    #expect(boundary.alert?.actions.map(\.label) == ["Start over", "That sucks"])
    #expect(boundary.choose("Start over") == .reset)
    #expect(View.treeLock.withLock { resets.value } == 1)
    #expect(boundary.alert == nil)
    // New views, as the content says them, not the old ones.
    #expect(boundary.children.map(\.id) == ["note", "break"])
    #expect(root.find("note")?.text == "fresh")
  }

  @Test func aResetKeyResetsTheBoundaryWhileItShowsAnAlert() throws {
    let resets = Counter()
    let root = Window(id: "app") {
      ErrorBoundary(id: "guard") {
        Button("Break", id: "break") { _ in throw MyError() }
      }
      .onReset { resets.value += 1 }
      .resetKeys("document")
    }.makeView()
    let boundary = try #require(root.find("guard"))
    root.environment[named: "document"] = "a"  // no alert: nothing happens
    #expect(View.treeLock.withLock { resets.value } == 0)
    #expect(try #require(root.find("break")).tap() == false)  // it failed
    root.environment[named: "document"] = "b"
    #expect(View.treeLock.withLock { resets.value } == 1)
    #expect(boundary.alert == nil)
    #expect(boundary.children.map(\.id) == ["break"])
  }

  @Test func onErrorFiltersAndIsolatedKeepsWhatItDeclines() throws {
    let outer = RecordingAlertPresenter()
    let root = Window(id: "app", presenter: outer) {
      ErrorBoundary(id: "passing") {
        Button("Break", id: "break") { _ in throw MyError() }
      }.onError { _, _ in .decline }
      ErrorBoundary(id: "keeping") {
        Button("Break", id: "break2") { _ in throw MyError() }
      }.onError { _, _ in .decline }.isolated()
    }.makeView()
    #expect(try #require(root.find("break")).tap() == false)  // it failed
    #expect(root.find("passing")?.alert == nil)
    #expect(root.alert != nil)  // declined: it went up to the window
    _ = root.dismiss()
    #expect(try #require(root.find("break2")).tap() == false)  // it failed
    #expect(root.find("keeping")?.alert != nil)  // isolated: a decline stays here
    #expect(root.alert == nil)
  }

  @Test func aConfigurationGivesTheSameInOneValue() throws {
    var configuration = BoundaryConfiguration(title: "Oops", offersRetry: true)
    configuration.resetKeys = ["user"]
    let root = Window(id: "app") {
      ErrorBoundary(id: "guard", configuration) {
        Button("Break", id: "break") { _ in throw MyError() }
      }
    }.makeView()
    let boundary = try #require(root.find("guard"))
    #expect(boundary.boundary?.resetKeys == ["user"])
    #expect(try #require(root.find("break")).tap() == false)  // it failed
    #expect(boundary.alert?.title == "Oops")
    #expect(boundary.alert?.actions.map(\.label) == ["Try again", "That sucks"])
  }

  @Test func aResetWhoseActionThrowsStillBuildsTheContent() throws {
    let root = Window(id: "app", presenter: RecordingAlertPresenter()) {
      ErrorBoundary(id: "guard") {
        Button("Break", id: "break") { _ in throw MyError() }
      }.onReset { throw MyError() }
    }.makeView()
    let boundary = try #require(root.find("guard"))
    #expect(try #require(root.find("break")).tap() == false)
    #expect(boundary.choose("Reset") == .reset)
    #expect(boundary.children.map(\.id) == ["break"])  // never left empty
    #expect(root.alert != nil)  // the action's error went up from the boundary's parent
  }
}
