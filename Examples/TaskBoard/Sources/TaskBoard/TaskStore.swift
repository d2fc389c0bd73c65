import Foundation

/// The app's own state: a list of tasks. Swift owns it; scripts see it through the
/// `task_list` component and the `tasks` module.
final class TaskStore {
  struct Task: Equatable {
    var title: String
    var isDone = false
  }

  private(set) var tasks: [Task]
  /// Called after every change, so views that show the store can refresh.
  var onChange: [() -> Void] = []

  init(_ titles: [String]) { tasks = titles.map { Task(title: $0) } }

  var openCount: Int { tasks.count { !$0.isDone } }

  func add(_ title: String) throws {
    let title = title.trimmingCharacters(in: .whitespaces)
    guard !title.isEmpty else { throw TaskError.emptyTitle }
    guard !tasks.contains(where: { $0.title == title }) else { throw TaskError.duplicate(title) }
    tasks.append(Task(title: title))
    changed()
  }

  func complete(_ index: Int) throws {
    guard tasks.indices.contains(index) else { throw TaskError.noSuchTask(index + 1) }
    tasks[index].isDone = true
    changed()
  }

  /// Removes the tasks that are done; throws if there are none.
  func clearDone() throws {
    let before = tasks.count
    tasks.removeAll(where: \.isDone)
    guard tasks.count < before else { throw TaskError.nothingToClear }
    changed()
  }

  private func changed() { for action in onChange { action() } }
}

/// What can go wrong with tasks, in Swift's error vocabulary: the alerts show the
/// description, the reason and the suggestion.
enum TaskError: LocalizedError, Equatable {
  case emptyTitle
  case duplicate(String)
  case noSuchTask(Int)
  case nothingToClear

  var errorDescription: String? {
    switch self {
    case .emptyTitle: "A task needs a title."
    case .duplicate(let title): "There is already a task called “\(title)”."
    case .noSuchTask(let number): "There is no task \(number)."
    case .nothingToClear: "Nothing to clear."
    }
  }

  var failureReason: String? {
    switch self {
    case .nothingToClear: "No task is done yet."
    default: nil
    }
  }

  var recoverySuggestion: String? {
    switch self {
    case .emptyTitle: "Type a few words first."
    case .nothingToClear: "Complete a task, then clear."
    default: nil
    }
  }
}
