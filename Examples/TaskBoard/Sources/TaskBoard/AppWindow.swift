import LuaHost
import ViewTree

/// The app's window, written with ViewTree's components as a SwiftUI app writes its views:
///
/// ```
/// app (window "TaskBoard")
/// ├─ heading (text)
/// ├─ board (boundary "Task error" / "OK")
/// │  ├─ tasks (task_list)           the app's own component, over the store
/// │  ├─ goal (slider)               another one, 0…10
/// │  └─ clear (button "Clear done") throws through the environment's errorHandler
/// └─ plugins (stack)                each plugin's panel goes here, with its own boundary
/// ```
struct AppWindow: Component {
  let store: TaskStore

  var body: some Component {
    Text("TaskBoard: \(store.openCount) open", id: "heading")
    ErrorBoundary(id: "board", title: "Task error", dismissLabel: "OK") {
      CustomView { TaskList.makeView(id: "tasks", store: store) }
      CustomView { Slider.makeView(id: "goal", range: 0...10, value: 3) }
      ClearButton(store: store)
    }
    Stack(id: "plugins") {}
  }
}

/// A deeply buried button that runs its throwing work through the nearest error handler.
struct ClearButton: Component {
  let store: TaskStore
  @Environment(\.errorHandler) var errorHandler

  var body: some Component {
    Button("Clear done", id: "clear") { [store, errorHandler] _ in
      errorHandler { try store.clearDone() }
    }
  }
}
