/// The work that failed, kept with its alert so that "Try again" can run it again: a
/// view's action, or the body given to an ``ErrorHandler``.
///
/// It holds what the work needs; the view it came from is held weakly by whoever made it.
/// It runs only through ``View/choose(_:of:)``, holding ``View/treeLock``.
public struct RetryableWork: @unchecked Sendable {
  /// Runs the work again. An error it throws is routed from the view the work came from,
  /// with this same work, so the next "Try again" runs it once more.
  let run: () throws -> Void

  /// The view the work came from; the router sets it when the alert is made.
  weak var origin: View?

  /// Work that `run` does again. Use it with ``ErrorHandler/handle(_:retry:)`` when your
  /// own code routes an error and knows how to redo what failed.
  public init(_ run: @escaping () throws -> Void) {
    self.run = run
  }
}
