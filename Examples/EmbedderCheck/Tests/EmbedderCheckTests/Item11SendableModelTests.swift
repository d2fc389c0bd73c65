import Testing
import ViewTree

/// Item 11: the advice for a model that sync components and async work both use, followed
/// as the guide gives it (`TreeLocked`), compiles in Swift 6 without `@unchecked` here.
struct Notes {
  var titles: [String] = []
}

struct NotesPanel: Component {
  @Environment(\.errorHandler) var errorHandler
  let notes: TreeLocked<Notes>
  let synced: Signal

  var body: some Component {
    Stack(id: "panel") {
      Text("0 notes", id: "count")
      Button("Add", id: "add") { view in
        // Sync: the action holds the tree lock already.
        let count = notes.withValue { notes in
          notes.titles.append("note")
          return notes.titles.count
        }
        view.parent?.find("count")?.text = "\(count) notes"
      }
      Button("Sync", id: "sync") { [notes, synced] _ in
        errorHandler {
          try await Task.sleep(for: .milliseconds(1))  // awaits with no lock held
          notes.withValue { $0.titles.append("from server") }
          synced.fire()
        }
      }
    }
  }
}

@Suite(.timeLimit(.minutes(5))) struct Item11SendableModelTests {
  @Test func aTreeLockedModelServesSyncViewsAndAsyncWork() async throws {
    let notes = TreeLocked(Notes())
    let synced = Signal()
    let root = Window(id: "app") { NotesPanel(notes: notes, synced: synced) }.makeView()
    #expect(try #require(root.find("add")).tap())
    #expect(root.find("count")?.text == "1 notes")
    #expect(try #require(root.find("sync")).tap())
    await synced.wait()
    #expect(notes.withValue { $0.titles } == ["note", "from server"])
  }
}
