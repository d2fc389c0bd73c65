import ViewTree

/// Writes alerts as they appear, in the plain form (pipes) or as boxes (terminals).
public final class TranscriptAlertPresenter: AlertPresenter {
  /// Where the text goes.
  let write: (String) -> Void
  /// Whether to draw boxes instead of the plain form.
  let boxed: Bool
  /// The latest alerts presented (at most ``historyLimit``), each as a
  /// record (`Alert.record(messageLimit:)`) with the count it last had, oldest first. A
  /// record holds no error and a cut message: a script that raises alerts in a loop does
  /// not grow the host.
  public var history: [Alert] { kept.alerts }
  private var kept = AlertHistory()

  /// The most alerts ``history`` keeps.
  public static let historyLimit = AlertHistory.limit
  /// Whether an alert reached the root default handler.
  public private(set) var sawUnhandled = false

  /// Creates a presenter writing through `write`.
  public init(boxed: Bool = false, write: @escaping (String) -> Void) {
    self.boxed = boxed
    self.write = write
  }

  /// Prints an alert that just became current.
  public func present(_ alert: Alert, boundary: View) {
    kept.append(alert)
    if alert.isUnhandled { sawUnhandled = true }
    write((boxed ? AlertFormatter.box(alert) : AlertFormatter.plain(alert)) + "\n")
  }

  /// Prints an alert queued behind the current one as it comes: a run with no one to
  /// dismiss alerts showed only the first of a boundary's errors.
  public func queued(_ alert: Alert, boundary: View) {
    present(alert, boundary: boundary)
  }

  /// Prints that a pending alert repeated.
  public func countChanged(_ alert: Alert, boundary: View) {
    kept.update(alert)
    write("alert repeated: \(alert.title) ×\(alert.count) [\(alert.path)]\n")
  }
}
