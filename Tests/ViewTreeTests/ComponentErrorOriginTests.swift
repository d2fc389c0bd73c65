import Testing
import ViewTree

/// A component reads `errorHandler` where it is mounted, but, as in SwiftUI, whose
/// environment is per view, the action of one of its views uses that view's handler: the
/// alert names the view that failed, and removing that view cancels its work.
struct Uploader: Component {
  @Environment(\.errorHandler) var errorHandler
  let cancelled: Signal

  var body: some Component {
    Stack(id: "row") {
      Button("Save", id: "save") { _ in errorHandler { throw MyError() } }
      Button("Upload", id: "upload") { [cancelled] _ in
        errorHandler { [cancelled] in
          // Only a cancellation ends this within the test's limit.
          do {
            try await Task.sleep(for: .seconds(3600))
          } catch {
            if error is CancellationError, Task.isCancelled { cancelled.fire() }
            throw error
          }
        }
      }
    }
  }
}

/// A component whose own body holds a boundary: its handler was read outside that
/// boundary, so its errors pass it by, as in SwiftUI.
struct SelfGuarded: Component {
  @Environment(\.errorHandler) var errorHandler

  var body: some Component {
    ErrorBoundary(id: "inner") {
      Button("Save", id: "save") { _ in errorHandler { throw MyError() } }
    }
  }
}

@Suite(.timeLimit(.minutes(30))) struct ComponentErrorOriginTests {
  @Test func theAlertNamesTheViewWhoseActionFailed() throws {
    let presenter = RecordingAlertPresenter()
    let root = Window(id: "app", presenter: presenter) {
      ErrorBoundary(id: "guard") { Uploader(cancelled: Signal()) }
    }.makeView()
    #expect(try #require(root.find("save")).tap())
    let alert = try #require(root.find("guard")?.alert)
    #expect(alert.path == "app/guard/row/save")
    #expect(alert.message == "MyError()")
    #expect(root.alert == nil)
  }

  @Test func removingTheButtonCancelsItsWork() async throws {
    let cancelled = Signal()
    let root = Window(id: "app") {
      ErrorBoundary(id: "guard") { Uploader(cancelled: cancelled) }
    }.makeView()
    let upload = try #require(root.find("upload"))
    #expect(upload.tap())
    #expect(View.treeLock.withLock { upload.hasRunningWork })
    // The work belongs to the button, not to the view the component was mounted into.
    #expect(View.treeLock.withLock { !(root.find("guard")?.hasRunningWork ?? true) })
    View.treeLock.withLock { _ = upload.removeFromParent() }
    let sawCancellation = await cancelled.wait()
    try #require(sawCancellation, "removing the button did not cancel its work")
    #expect(View.treeLock.withLock { root.find("guard")?.alert } == nil)
  }

  @Test func aBoundaryInsideTheComponentsOwnBodyIsPassedBy() throws {
    let root = Window(id: "app") {
      ErrorBoundary(id: "outer") { SelfGuarded() }
    }.makeView()
    #expect(try #require(root.find("save")).tap())
    #expect(root.find("inner")?.alert == nil)
    let alert = try #require(root.find("outer")?.alert)
    #expect(alert.path == "app/outer")
  }

  @Test func aHandlerUsedOutsideAnyActionKeepsItsOrigin() throws {
    let root = Window(id: "app") { ErrorBoundary(id: "guard") { Uploader(cancelled: Signal()) } }
      .makeView()
    let guardView = try #require(root.find("guard"))
    // Read from the boundary's child and used from plain code: the origin is where it
    // was read.
    let row = try #require(root.find("row"))
    row.environment.errorHandler.handle(MyError())
    #expect(guardView.alert?.path == "app/guard/row")
  }
}
