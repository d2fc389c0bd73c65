import ViewTree

/// Collects alerts as boundaries present them, for the console to draw after each input,
/// and passes each call on to the presenter the window had before.
final class AlertCollector: AlertPresenter {
  /// Alerts that became current and are not drawn yet, with their boundary.
  var pending: [(alert: Alert, boundary: View)] = []
  /// The session's latest alerts, as records with their latest count.
  var history: [Alert] { kept.alerts }
  /// The alert presented (or, through ``ReplSession/drew(_:boundary:)``, drawn) last. Its
  /// boundary is held weakly: the window holds this collector as its presenter, so a
  /// strong reference back would keep both alive for ever.
  var latest: (alert: Alert, boundary: View)? {
    get { latestAlert.flatMap { alert in latestBoundary.map { (alert, $0) } } }
    set {
      latestAlert = newValue?.alert
      latestBoundary = newValue?.boundary
    }
  }
  private var latestAlert: Alert?
  private weak var latestBoundary: View?
  private var kept = AlertHistory()
  /// The presenter the window had before the session attached (the app's own).
  private var next: (any AlertPresenter)?

  /// Becomes `window`'s presenter, keeping the one it had (once: attaching to the same
  /// window again does not chain the collector to itself).
  func attach(to window: View) {
    let previous = window.environment.alertPresenter
    if previous !== self { next = previous }
    window.environment.alertPresenter = self
  }

  /// The most alerts waiting to be drawn; past it the oldest go undrawn.
  static let pendingLimit = 1000

  func present(_ alert: Alert, boundary: View) {
    pending.append((alert, boundary))
    latest = (alert, boundary)
    if pending.count > Self.pendingLimit { pending.removeFirst() }
    kept.append(alert)
    next?.present(alert, boundary: boundary)
  }

  func countChanged(_ alert: Alert, boundary: View) {
    if let index = pending.lastIndex(where: {
      $0.boundary === boundary && $0.alert.isSame(as: alert)
    }) {
      pending[index].alert = alert
    }
    if let current = latest, current.boundary === boundary, current.alert.isSame(as: alert) {
      latest = (alert, boundary)
    }
    kept.update(alert)
    next?.countChanged(alert, boundary: boundary)
  }

  func dismissed(_ alert: Alert, boundary: View) {
    // Still drawn (the transcript shows it), but as a record: its error and message stop
    // costing the host once the boundary let it go.
    if let index = pending.lastIndex(where: {
      $0.boundary === boundary && $0.alert.isSame(as: alert)
    }) {
      pending[index].alert = alert.record()
    }
    next?.dismissed(alert, boundary: boundary)
  }
}
