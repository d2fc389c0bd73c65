/// An ``AlertPresenter`` that records what it is asked to show, for tests and transcripts.
public final class RecordingAlertPresenter: AlertPresenter {
  /// One call the presenter received.
  public enum Event: Sendable {
    /// An alert became current at the boundary with path `boundary`.
    case presented(Alert, boundary: String)
    /// A pending alert's count went up.
    case countChanged(Alert, boundary: String)
    /// An alert was dismissed.
    case dismissed(Alert, boundary: String)
  }

  /// Every call so far, oldest first.
  public private(set) var events: [Event] = []

  /// Creates an empty recorder.
  public init() {}

  /// The alerts presented so far, oldest first.
  public var presented: [Alert] {
    events.compactMap { if case .presented(let alert, _) = $0 { alert } else { nil } }
  }

  /// The events as lines like `present root/guard: Error: MyError() [root/guard/crash] (That sucks)`.
  public var transcript: [String] {
    events.map {
      switch $0 {
      case .presented(let alert, let boundary): "present \(boundary): \(alert)"
      case .countChanged(let alert, let boundary): "count \(boundary): \(alert)"
      case .dismissed(let alert, let boundary): "dismiss \(boundary): \(alert)"
      }
    }
  }

  /// Forgets all events.
  public func removeAll() {
    events.removeAll()
  }

  /// Records a presentation.
  public func present(_ alert: Alert, boundary: View) {
    events.append(.presented(alert, boundary: boundary.path))
  }

  /// Records a count change.
  public func countChanged(_ alert: Alert, boundary: View) {
    events.append(.countChanged(alert, boundary: boundary.path))
  }

  /// Records a dismissal.
  public func dismissed(_ alert: Alert, boundary: View) {
    events.append(.dismissed(alert, boundary: boundary.path))
  }
}
