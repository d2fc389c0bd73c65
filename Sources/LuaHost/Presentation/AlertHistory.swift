import ViewTree

/// The latest alerts a console shows (at most ``limit``), each as a record
/// (`Alert.record(messageLimit:)`, no error and a cut message) with the count it last had,
/// oldest first: a script that raises alerts in a loop does not grow the host.
struct AlertHistory {
  /// The most alerts kept.
  static let limit = 100

  private(set) var alerts: [Alert] = []

  /// Keeps `alert`, dropping the oldest past the limit.
  mutating func append(_ alert: Alert) {
    alerts.append(alert.record())
    if alerts.count > Self.limit { alerts.removeFirst() }
  }

  /// Updates the kept record of `alert` (its count went up).
  mutating func update(_ alert: Alert) {
    let record = alert.record()
    if let index = alerts.lastIndex(where: { $0.isSame(as: record) }) { alerts[index] = record }
  }
}
