/// The work that failed, kept with its alert so that "Try again" can run it again: a
/// view's action, or the body given to an ``ErrorHandler``.
///
/// It holds what the work needs. The view it came from is held weakly, and only by an
/// alert whose boundary offers "Try again" (a weak reference gives a view a side table,
/// which the hot path of every other error should not pay for). It runs only through
/// ``View/choose(_:of:)``, holding ``View/treeLock``.
public struct RetryableWork: @unchecked Sendable {
  /// Runs the work again with the view it came from. An error it throws is routed from
  /// that view, with this same work, so the next "Try again" runs it once more.
  let run: (View) throws -> Void

  /// Whether `run` needs the view it came from (a view's action does); such work does not
  /// run once that view is gone.
  let needsOrigin: Bool

  /// The view the work came from; set when an alert that offers "Try again" is made.
  weak var origin: View?

  /// Work that `run` does again. Use it with ``ErrorHandler/handle(_:retry:)`` when your
  /// own code routes an error and knows how to redo what failed.
  public init(_ run: @escaping () throws -> Void) {
    self.run = { _ in try run() }
    needsOrigin = false
  }

  /// A view's action, run again with the view it came from (not run once that view is
  /// gone). It holds no view itself, so making one costs nothing for a plain action.
  public init(action: @escaping (View) throws -> Void) {
    run = action
    needsOrigin = true
  }
}
