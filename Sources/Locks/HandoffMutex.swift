import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The mutual exclusion under ``ReentrantLock``: fast while uncontended, and no waiter
/// waits for ever while other threads keep taking it.
///
/// A plain pthread mutex lets the releasing thread take the lock again before a waiter it
/// woke gets to run. A thread that holds the lock most of the time (a plugin calling
/// `ui.find` over a large tree in a loop: each call holds the tree lock for tens of
/// milliseconds, and the next starts at once) then starves every other thread: one call
/// from another plugin waited 78 holds of 2 ms in a row. Here a thread that arrives takes
/// a free lock at once, as with a plain mutex, until some waiter has waited longer than
/// ``starvationThreshold`` (1 ms). From then on the lock is handed over: a release passes it
/// straight to the longest waiter (it never becomes free in between), and arriving
/// threads queue behind. It goes back to the fast way when the queue empties. So a
/// waiter waits at most about two holds of each thread ahead of it.
package final class HandoffMutex: @unchecked Sendable {
  // `@unchecked Sendable`: `held`, `waiters` and `starving` are atomic; `queue`,
  // `nextTicket` and `granted` are read and written only holding `gate`.

  /// Whether some thread holds the lock.
  private let held = Atomic<Bool>(false)
  /// How many threads are in `lockSlowly` (registered before their first attempt there).
  private let waiters = Atomic<Int>(0)
  /// Whether releases hand the lock to the longest waiter instead of freeing it.
  private let starving = Atomic<Bool>(false)
  /// Guards the queue and wakes waiters (with `turn`); held only for bookkeeping, never
  /// across the section the lock protects.
  private let gate: UnsafeMutablePointer<pthread_mutex_t>
  private let turn: UnsafeMutablePointer<pthread_cond_t>
  /// The waiters' tickets, oldest first.
  private var queue: [UInt64] = []
  private var nextTicket: UInt64 = 0
  /// The ticket a release handed the lock to, until its waiter takes it.
  private var granted: UInt64?

  /// How long, in nanoseconds, a waiter may wait before releases start handing the lock
  /// over.
  let starvationThreshold: UInt64

  /// Creates an unlocked mutex. `starvationThreshold`: 1 ms by default, as Go's mutex
  /// (tests pass 0, to hand over at the first wait).
  package init(starvationThreshold: UInt64 = 1_000_000) {
    self.starvationThreshold = starvationThreshold
    gate = .allocate(capacity: 1)
    pthread_mutex_init(gate, nil)
    turn = .allocate(capacity: 1)
    pthread_cond_init(turn, nil)
  }

  deinit {
    pthread_cond_destroy(turn)
    turn.deallocate()
    pthread_mutex_destroy(gate)
    gate.deallocate()
  }

  /// How many threads wait for the lock now.
  package var waiterCount: Int { waiters.load(ordering: .sequentiallyConsistent) }

  /// Whether releases hand the lock to the longest waiter now.
  package var isHandingOver: Bool { starving.load(ordering: .sequentiallyConsistent) }

  /// Takes the lock, waiting while another thread holds it or is owed it.
  package func lock() {
    if !tryLock() { lockSlowly() }
  }

  /// Takes the lock if it is free and no waiter is owed it; never waits.
  @inline(__always)
  package func tryLock() -> Bool {
    !starving.load(ordering: .relaxed)
      && held.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
  }

  /// Waits for the lock and takes it (after a failed ``tryLock()``).
  package func lockSlowly() {
    pthread_mutex_lock(gate)
    let ticket = nextTicket
    nextTicket &+= 1
    queue.append(ticket)
    // Sequentially consistent with `unlock`'s store and load: either this thread's attempt
    // below sees the lock free, or the release sees this waiter and wakes it.
    waiters.add(1, ordering: .sequentiallyConsistent)
    let start = Self.now()
    while true {
      if granted == ticket {
        granted = nil
        break
      }
      // While the lock is being handed over, only the longest waiter may take it free.
      if !starving.load(ordering: .sequentiallyConsistent) || queue.first == ticket,
        held.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent)
          .exchanged
      {
        break
      }
      if !starving.load(ordering: .relaxed), Self.now() &- start >= starvationThreshold {
        starving.store(true, ordering: .sequentiallyConsistent)
      }
      pthread_cond_wait(turn, gate)
    }
    if let index = queue.firstIndex(of: ticket) { queue.remove(at: index) }
    waiters.subtract(1, ordering: .sequentiallyConsistent)
    // Back to the fast way once nobody waits, or once waits are short again.
    if queue.isEmpty || Self.now() &- start < starvationThreshold {
      starving.store(false, ordering: .sequentiallyConsistent)
    }
    pthread_mutex_unlock(gate)
  }

  /// Gives the lock back: to the longest waiter while waiters starve, else to whoever
  /// takes it first.
  package func unlock() {
    if starving.load(ordering: .sequentiallyConsistent) {
      pthread_mutex_lock(gate)
      if let first = queue.first {
        granted = first  // `held` stays true: the lock passes without being free
        pthread_cond_broadcast(turn)
        pthread_mutex_unlock(gate)
        return
      }
      // Not reached while the invariant holds (only a queued waiter sets `starving`, and
      // the one that empties the queue clears it); kept so that a broken invariant frees
      // the lock instead of keeping it.
      starving.store(false, ordering: .sequentiallyConsistent)
      pthread_mutex_unlock(gate)
    }
    held.store(false, ordering: .sequentiallyConsistent)
    if waiters.load(ordering: .sequentiallyConsistent) > 0 {
      pthread_mutex_lock(gate)
      pthread_cond_broadcast(turn)
      pthread_mutex_unlock(gate)
    }
  }

  /// Monotonic nanoseconds, for the waits' lengths.
  private static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
  }
}
