#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The view whose action (``View/perform(_:)``, ``View/send(_:_:)``) runs on this thread
/// now, innermost first: an ``ErrorHandler`` used inside the action routes from it, as
/// SwiftUI's environment is per view. A thread-local pointer, unretained: the view is
/// alive while its own action runs, and the pointer is read only then.
enum ActingView {
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    precondition(pthread_key_create(&key, nil) == 0, "no thread-local key left")
    return key
  }()

  /// The innermost view whose action runs on this thread, if any.
  static var current: View? {
    guard let pointer = pthread_getspecific(key) else { return nil }
    return Unmanaged<View>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// Runs `body` with `view` as the acting view of this thread.
  @inline(__always)
  static func with<T>(_ view: View, _ body: () throws -> T) rethrows -> T {
    let outer = pthread_getspecific(key)
    pthread_setspecific(key, Unmanaged.passUnretained(view).toOpaque())
    defer { pthread_setspecific(key, outer) }
    return try body()
  }
}
