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
  public var history: [Alert] { View.treeLock.withLock { kept.alerts } }

  /// The most alerts ``history`` keeps.
  public static let historyLimit = AlertHistory.limit
  /// Whether an alert reached the root default handler.
  public var sawUnhandled: Bool { View.treeLock.withLock { unhandled } }

  // Guarded by `View.treeLock`: boundaries call the presenter from whichever thread raised
  // the error (a plugin's timer), holding it, while the run reads ``sawUnhandled`` and
  // ``history`` from its own thread, where plugins may still be running.
  private var kept = AlertHistory()
  private var unhandled = false

  /// Creates a presenter writing through `write`.
  public init(boxed: Bool = false, write: @escaping (String) -> Void) {
    self.boxed = boxed
    self.write = write
  }

  /// Prints an alert that just became current.
  public func present(_ alert: Alert, boundary: View) {
    View.treeLock.withLock {  // held by the caller already, unless a test calls directly
      kept.append(alert)
      if alert.isUnhandled { unhandled = true }
    }
    write((boxed ? AlertFormatter.box(alert) : AlertFormatter.plain(alert)) + "\n")
  }

  /// Prints an alert queued behind the current one as it comes: a run with no one to
  /// dismiss alerts showed only the first of a boundary's errors.
  public func queued(_ alert: Alert, boundary: View) {
    present(alert, boundary: boundary)
  }

  /// Prints that a pending alert repeated.
  public func countChanged(_ alert: Alert, boundary: View) {
    View.treeLock.withLock { kept.update(alert) }
    // The title and path are a script's text: escaped, as the alert itself is.
    write(
      "alert repeated: \(alert.title.clipped()) ×\(alert.count) [\(alert.path.clipped())]"
        .visibleControls(keepingNewlines: false) + "\n")
  }
}
