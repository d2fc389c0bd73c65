/// Sends errors to the nearest error boundary above the view it was read from.
///
/// Read it from the environment (`view.environment.errorHandler`, or
/// `@Environment(\.errorHandler)` in a ``Component``) and run throwing work
/// through it:
///
/// ```swift
/// errorHandler { try save() }
/// ```
///
/// The handler holds its origin view weakly, so an action may keep one
/// without creating a reference cycle. The boundary is found when the error
/// happens, not when the handler is read. Used inside the action of a view
/// below its origin (a component's button), it routes from that view: the
/// alert names the button, and removing the button cancels its async work.
public struct ErrorHandler {
  /// The view the handler was read from; alerts show its path. `nil` once it is gone.
  public private(set) weak var origin: View?

  /// Creates a handler that routes errors from `origin`.
  public init(origin: View?) {
    self.origin = origin
  }

  /// Sends `error` to the nearest boundary at or above the origin.
  ///
  /// - Returns: `false` if the origin view no longer exists, so the error was dropped.
  @discardableResult
  public func handle(_ error: any Error) -> Bool {
    handle(error, retry: nil)
  }

  /// Sends `error` to the nearest boundary at or above the origin, with the work that
  /// failed: a boundary that offers "Try again" runs `retry` when it is chosen.
  ///
  /// - Returns: `false` if the origin view no longer exists, so the error was dropped.
  @discardableResult
  public func handle(_ error: any Error, retry: RetryableWork?) -> Bool {
    guard let origin = routingOrigin else { return false }
    ErrorRouter.route(error, from: origin, retry: retry)
    return true
  }

  /// The view errors go from: inside the action of a view below ``origin`` (a button of a
  /// component whose environment was read from the view it was mounted into), that view,
  /// as SwiftUI's environment is per view, so the alert names it and removing it cancels
  /// its work; else ``origin``. The acting view is taken only when no boundary lies
  /// between it and ``origin`` (itself included), so the boundary that handles the error
  /// is the one ``origin``'s environment gave.
  var routingOrigin: View? {
    guard let origin else { return nil }
    guard let acting = ActingView.current, acting !== origin else { return origin }
    return View.treeLock.withLock {
      var node: View? = acting
      while let view = node, view !== origin {
        if view.boundary != nil { return origin }
        node = view.parent
      }
      return node === origin ? acting : origin
    }
  }

  /// Runs `body` and returns its result; an error it throws goes to the nearest boundary,
  /// and a boundary that offers "Try again" runs `body` again when it is chosen.
  ///
  /// For a `Void` body the result is `()` on success and `nil` if `body` threw.
  /// - Returns: The result of `body`, or `nil` if it threw.
  @discardableResult
  public func handle<T>(_ body: @escaping () throws -> T) -> T? {
    do {
      return try body()
    } catch {
      handle(error, retry: RetryableWork { _ = try body() })
      return nil
    }
  }

  /// Runs `body` and returns its result; an error it throws goes to the nearest boundary.
  ///
  /// This makes `errorHandler { try … }` work. For a `Void` body the result
  /// is `()` on success and `nil` if `body` threw.
  /// - Returns: The result of `body`, or `nil` if it threw.
  @discardableResult
  public func callAsFunction<T>(_ body: @escaping () throws -> T) -> T? {
    handle(body)
  }
}
