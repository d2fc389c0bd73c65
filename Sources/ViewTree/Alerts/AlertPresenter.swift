/// Draws the alerts of a tree: a REPL box, a plain transcript, a test recorder.
///
/// Set one on the window with `window.environment.alertPresenter = presenter`;
/// every boundary below uses it. The environment holds it strongly, so it must
/// not hold views strongly.
///
/// In a tree shared between threads the presenter is called while holding
/// ``View/treeLock``, from whichever thread raised the error, one call at a time: it must
/// not wait for other locks (run a script, say) while it presents.
public protocol AlertPresenter: AnyObject {
  /// Shows `alert`, which just became the current alert of `boundary`.
  func present(_ alert: Alert, boundary: View)

  /// Updates a pending `alert` of `boundary` whose ``Alert/count`` went up.
  func countChanged(_ alert: Alert, boundary: View)

  /// Hides `alert`, which `boundary` no longer shows.
  func dismissed(_ alert: Alert, boundary: View)

  /// Notes `alert`, which `boundary` queued behind its current one: it is presented when
  /// the alerts before it are dismissed. A transcript with no one to dismiss prints it now.
  func queued(_ alert: Alert, boundary: View)
}

extension AlertPresenter {
  /// Does nothing.
  public func countChanged(_ alert: Alert, boundary: View) {}

  /// Does nothing.
  public func dismissed(_ alert: Alert, boundary: View) {}

  /// Does nothing.
  public func queued(_ alert: Alert, boundary: View) {}
}
