#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which thread waits for which ``ReentrantLock``: the edges a deadlock would need.
///
/// Only a contended acquisition touches it (an uncontended one costs nothing here). A wait
/// is recorded before the thread blocks and forgotten once it holds the lock, under one
/// process-wide mutex, so of two threads that close a cycle the second always sees the
/// first one's edge.
final class WaitGraph: @unchecked Sendable {
  // `@unchecked Sendable`: `waiting` is touched only while holding `mutex`.
  static let shared = WaitGraph()

  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  /// Thread id → the lock it waits for (unretained: a lock outlives its waiters).
  private var waiting: [UInt: Unmanaged<ReentrantLock>] = [:]

  private init() {
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
  }

  /// Records that `thread` is about to wait for `lock`. With `refusingCycles`, throws
  /// instead when the wait would close a cycle: `lock`'s holder waits, directly or through
  /// others, for a lock that `thread` holds (recording nothing then).
  func willWait(_ thread: UInt, for lock: ReentrantLock, refusingCycles: Bool)
    throws(LockCycleError)
  {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    if refusingCycles {
      var chain = [lock]
      var next = lock
      // Each step follows a holder that is blocked right now; a chain longer than every
      // thread there is cannot be a cycle through `thread`.
      for _ in 0...waiting.count {
        let holder = next.ownerThread
        if holder == 0 { break }
        if holder == thread { throw LockCycleError(chain.map(\.displayName)) }
        guard let wanted = waiting[holder]?.takeUnretainedValue() else { break }
        chain.append(wanted)
        next = wanted
      }
    }
    waiting[thread] = Unmanaged.passUnretained(lock)
  }

  /// Forgets the wait of `thread` (it holds the lock now).
  func didWait(_ thread: UInt) {
    pthread_mutex_lock(mutex)
    waiting[thread] = nil
    pthread_mutex_unlock(mutex)
  }
}

/// A wait for a lock that would never end: the lock's holder waits (directly or through
/// other threads) for a lock the waiting thread holds. Thrown by
/// ``ReentrantLock/lockRefusingCycles()`` instead of deadlocking.
public struct LockCycleError: Error, CustomStringConvertible {
  /// The locks of the cycle, by name: the one asked for first, then the one its holder
  /// waits for, and so on; the last is held by the thread that was refused.
  public let locks: [String]

  init(_ locks: [String]) { self.locks = locks }

  /// Names every lock of the cycle and the rule.
  public var description: String {
    let wanted = locks.first ?? "a lock"
    let held = locks.last ?? "a lock"
    let through =
      locks.count > 2 ? " (through \(locks.dropFirst().dropLast().joined(separator: ", ")))" : ""
    return
      "deadlock refused: waiting for \(wanted) would never end, because the thread that holds "
      + "it waits\(through) for \(held), which this thread holds. Code that runs on one Lua "
      + "state (a host module function, a component, a presenter) must not call into another "
      + "state that may call back into the first from another thread; call across with "
      + "Plugin.send, or from a Task"
  }
}
