import Testing
import ViewTree

/// Item 1: `@Environment(\.errorHandler)` in a component routes from the view whose action
/// used it: the alert names that view, and removing it cancels its work.
struct Uploader: Component {
  @Environment(\.errorHandler) var errorHandler
  let cancelled: Signal

  var body: some Component {
    Stack(id: "row") {
      Button("Save", id: "save") { _ in errorHandler { throw Failure("disk full") } }
      Button("Upload", id: "upload") { [cancelled] _ in
        errorHandler {
          do {
            try await Task.sleep(for: .seconds(3600))  // only a cancellation ends it
          } catch {
            if Task.isCancelled { cancelled.fire() }
            throw error
          }
        }
      }
    }
  }
}

@Suite(.timeLimit(.minutes(5))) struct Item01ErrorOriginTests {
  @Test func theAlertNamesTheButtonAndRemovingItCancelsItsWork() async throws {
    let cancelled = Signal()
    let presenter = RecordingAlertPresenter()
    let root = Window(id: "app", presenter: presenter) {
      ErrorBoundary(id: "guard") { Uploader(cancelled: cancelled) }
    }.makeView()
    #expect(try #require(root.find("save")).tap())  // errorHandler took the error
    #expect(root.find("guard")?.alert?.path == "app/guard/row/save")
    let upload = try #require(root.find("upload"))
    #expect(upload.tap())
    #expect(upload.removeFromParent())
    await cancelled.wait()
    #expect(presenter.presented.count == 1)  // a cancelled upload raises nothing
  }
}
