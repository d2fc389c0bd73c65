import ViewTree

/// Collects alerts as boundaries present them, for the console to draw after each input,
/// and passes each call on to the presenter the window had before.
///
/// Boundaries call a presenter from whichever thread raised the error (a plugin's timer,
/// say), holding ``View/treeLock``; the console reads what was collected from its own
/// thread. So everything the collector keeps is guarded by that same lock: its callers
/// hold it already, and each read takes it. A lock of its own deadlocked: dropping a kept
/// boundary inside it ran `View.deinit`, which takes the tree lock, while a plugin's thread
/// held the tree lock and waited for the collector's.
final class AlertCollector: AlertPresenter, @unchecked Sendable {
  // `@unchecked Sendable`: `state` is touched only holding `View.treeLock` (`guarded`).
  private var state = State()

  /// What the collector keeps.
  private struct State {
    var pending: [(alert: Alert, boundary: View)] = []
    var latestAlert: Alert?
    // Held weakly: the window holds this collector as its presenter, so a strong
    // reference back would keep both alive for ever.
    weak var latestBoundary: View?
    var kept = AlertHistory()
    /// The presenter the window had before the session attached (the app's own).
    var next: (any AlertPresenter)?

    var latest: (alert: Alert, boundary: View)? {
      latestAlert.flatMap { alert in latestBoundary.map { (alert, $0) } }
    }

    mutating func setLatest(_ alert: Alert, _ boundary: View) {
      latestAlert = alert
      latestBoundary = boundary
    }
  }

  /// Runs `body` with the state, holding the tree lock (reentrant: presenters' callers
  /// hold it already).
  private func guarded<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    try View.treeLock.withLock { try body(&state) }
  }

  /// Alerts that became current and are not drawn yet, with their boundary, oldest
  /// first; taking them empties the list.
  func takePending() -> [(alert: Alert, boundary: View)] {
    guarded { state in
      var taken: [(alert: Alert, boundary: View)] = []
      swap(&taken, &state.pending)
      return taken
    }
  }

  /// Forgets the alerts not drawn yet.
  func clearPending() { _ = takePending() }

  /// The session's latest alerts, as records with their latest count.
  var history: [Alert] { guarded { $0.kept.alerts } }

  /// The alert presented (or, through ``ReplSession/drew(_:boundary:)``, drawn) last, while
  /// its boundary is alive.
  var latest: (alert: Alert, boundary: View)? {
    get { guarded { $0.latest } }
    set {
      guarded { state in
        state.latestAlert = newValue?.alert
        state.latestBoundary = newValue?.boundary
      }
    }
  }

  /// Becomes `window`'s presenter, keeping the one it had (once: attaching to the same
  /// window again does not chain the collector to itself).
  func attach(to window: View) {
    guarded { state in
      let previous = window.environment.alertPresenter
      if previous !== self { state.next = previous }
      window.environment.alertPresenter = self
    }
  }

  /// The most alerts waiting to be drawn; past it the oldest go undrawn.
  static let pendingLimit = 1000

  func present(_ alert: Alert, boundary: View) {
    let next = guarded { state in
      state.pending.append((alert, boundary))
      state.setLatest(alert, boundary)
      if state.pending.count > Self.pendingLimit { state.pending.removeFirst() }
      state.kept.append(alert)
      return state.next
    }
    next?.present(alert, boundary: boundary)
  }

  func countChanged(_ alert: Alert, boundary: View) {
    let next = guarded { state in
      if let index = state.pending.lastIndex(where: {
        $0.boundary === boundary && $0.alert.isSame(as: alert)
      }) {
        state.pending[index].alert = alert
      }
      if let current = state.latest, current.boundary === boundary,
        current.alert.isSame(as: alert)
      {
        state.setLatest(alert, boundary)
      }
      state.kept.update(alert)
      return state.next
    }
    next?.countChanged(alert, boundary: boundary)
  }

  func dismissed(_ alert: Alert, boundary: View) {
    let next = guarded { state in
      // Still drawn (the transcript shows it), but as a record: its error and message
      // stop costing the host once the boundary let it go.
      if let index = state.pending.lastIndex(where: {
        $0.boundary === boundary && $0.alert.isSame(as: alert)
      }) {
        state.pending[index].alert = alert.record()
      }
      return state.next
    }
    next?.dismissed(alert, boundary: boundary)
  }

  func queued(_ alert: Alert, boundary: View) {
    guarded { $0.next }?.queued(alert, boundary: boundary)
  }
}
