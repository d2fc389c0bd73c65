import ViewTree

/// Collects alerts as boundaries present them, for the REPL to draw after each input.
final class AlertCollector: AlertPresenter {
  /// Alerts that became current and are not drawn yet, with their boundary.
  var pending: [(alert: Alert, boundary: View)] = []
  /// Every alert of the session, with its latest count.
  var history: [Alert] = []

  func present(_ alert: Alert, boundary: View) {
    pending.append((alert, boundary))
    history.append(alert)
  }

  func countChanged(_ alert: Alert, boundary: View) {
    if let index = pending.lastIndex(where: {
      $0.boundary === boundary && Self.same($0.alert, alert)
    }) {
      pending[index].alert = alert
    }
    if let index = history.lastIndex(where: { Self.same($0, alert) }) { history[index] = alert }
  }

  static func same(_ a: Alert, _ b: Alert) -> Bool {
    a.title == b.title && a.message == b.message && a.path == b.path
  }
}
