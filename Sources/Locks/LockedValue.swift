#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value guarded by a pthread mutex: the package's lock for small shared state.
///
/// Not the standard library's `Mutex`: on Linux its contended path waits on a futex inside
/// the (uninstrumented) standard library, so ThreadSanitizer cannot see the ordering it
/// gives and reports races that are not there (CI's TSan pass saw one in `PendingWork`).
/// A pthread mutex is intercepted by the sanitizer, so real races stay visible.
package final class LockedValue<Value>: @unchecked Sendable {
  // `@unchecked Sendable`: `value` is touched only inside `withLock`, holding `mutex`.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  // Unchecked: the only access is `withLock`'s, and a nested one would deadlock on the
  // mutex before it could overlap (the runtime's check cost about 80 instructions a call).
  @exclusivity(unchecked) private var value: Value

  /// A lock guarding `value`.
  package init(_ value: Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with the value, holding the lock.
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
