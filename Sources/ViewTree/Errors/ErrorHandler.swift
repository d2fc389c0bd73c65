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
/// happens, not when the handler is read.
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
    guard let origin else { return false }
    ErrorRouter.route(error, from: origin, retry: retry)
    return true
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
