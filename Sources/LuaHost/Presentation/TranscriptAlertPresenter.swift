import ViewTree

/// Writes alerts as they appear, in the plain form (pipes) or as boxes (terminals).
public final class TranscriptAlertPresenter: AlertPresenter {
  /// Where the text goes.
  let write: (String) -> Void
  /// Whether to draw boxes instead of the plain form.
  let boxed: Bool
  /// Every alert presented, with the count it last had, oldest first.
  public private(set) var history: [Alert] = []
  /// Whether an alert reached the root default handler.
  public private(set) var sawUnhandled = false

  /// Creates a presenter writing through `write`.
  public init(boxed: Bool = false, write: @escaping (String) -> Void) {
    self.boxed = boxed
    self.write = write
  }

  /// Prints an alert that just became current.
  public func present(_ alert: Alert, boundary: View) {
    history.append(alert)
    if alert.isUnhandled { sawUnhandled = true }
    write((boxed ? AlertFormatter.box(alert) : AlertFormatter.plain(alert)) + "\n")
  }

  /// Prints that a pending alert repeated.
  public func countChanged(_ alert: Alert, boundary: View) {
    if let index = history.lastIndex(where: { $0.isSame(as: alert) }) {
      history[index] = alert
    }
    write("alert repeated: \(alert.title) ×\(alert.count) [\(alert.path)]\n")
  }
}
