import ViewTree

/// Collects alerts as boundaries present them, for the console to draw after each input,
/// and passes each call on to the presenter the window had before.
final class AlertCollector: AlertPresenter {
  /// Alerts that became current and are not drawn yet, with their boundary.
  var pending: [(alert: Alert, boundary: View)] = []
  /// Every alert of the session, with its latest count.
  var history: [Alert] = []
  /// The presenter the window had before the session attached (the app's own).
  private var next: (any AlertPresenter)?

  /// Becomes `window`'s presenter, keeping the one it had (once: attaching to the same
  /// window again does not chain the collector to itself).
  func attach(to window: View) {
    let previous = window.environment.alertPresenter
    if previous !== self { next = previous }
    window.environment.alertPresenter = self
  }

  func present(_ alert: Alert, boundary: View) {
    pending.append((alert, boundary))
    history.append(alert)
    next?.present(alert, boundary: boundary)
  }

  func countChanged(_ alert: Alert, boundary: View) {
    if let index = pending.lastIndex(where: {
      $0.boundary === boundary && $0.alert.isSame(as: alert)
    }) {
      pending[index].alert = alert
    }
    if let index = history.lastIndex(where: { $0.isSame(as: alert) }) { history[index] = alert }
    next?.countChanged(alert, boundary: boundary)
  }

  func dismissed(_ alert: Alert, boundary: View) {
    next?.dismissed(alert, boundary: boundary)
  }
}
