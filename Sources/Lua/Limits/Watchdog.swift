import CLuaShim
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One thread for the whole process that stops calls whose deadline has passed.
///
/// Zero cost for running code: arming a deadline stores a number in the state's
/// ``StopTarget`` (under that target's own lock, which only the watchdog's firing shares);
/// no hook is installed until the deadline passes, and then `lh_request_stop` signals the
/// thread that runs the state, which hooks it there (lh_deliver.c: never this thread). The thread sleeps until the earliest deadline, and is woken only when an
/// earlier deadline than the one it sleeps for is armed.
///
/// A target is listed here from its first deadline until its state closes. Arming was a
/// process-wide mutex and a dictionary insert, and disarming a removal: about 150 ns per
/// outermost call, paid again by every step of an async call (BENCHMARKS.md, case 9a).
final class Watchdog: @unchecked Sendable {
  // @unchecked: every mutable field below is guarded by `mutex` (a pthread mutex, so that
  // the thread can wait on `condition`), except `wakeAt`, which is an atomic.
  static let shared = Watchdog()

  private var mutex = pthread_mutex_t()
  private var condition = pthread_cond_t()
  private var targets: [ObjectIdentifier: StopTarget] = [:]
  private var started = false
  /// The time the thread will next wake, in monotonic nanoseconds (UInt64.max: never).
  private let wakeAt = Atomic<UInt64>(.max)
  /// The earliest deadline an arm woke the thread for (UInt64.max: none since its last
  /// scan). The thread sleeps until it even if that call has disarmed meanwhile: the next
  /// calls' deadlines come later, so they wake no one. Without it, every call made while
  /// nothing else was armed woke the thread (a futex wake and a scan per call).
  private let hint = Atomic<UInt64>(.max)

  private init() {
    pthread_mutex_init(&mutex, nil)
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(&condition, &attributes)
  }

  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  /// Arms the deadline of a call that starts at `now`; one already past (a run's end that
  /// came) stops the call at once, here, before any of its code runs: the entry that opens
  /// next finds the stop pending and raises it at its first hook.
  @inline(__always)
  func arm(_ target: StopTarget, deadline: UInt64, startingAt now: UInt64) {
    if deadline > now {
      arm(target, deadline: deadline)
    } else {
      target.request(Int32(LH_STOP_TIMEOUT))
    }
  }

  /// Arms (or re-arms) the deadline of `target`'s state.
  func arm(_ target: StopTarget, deadline: UInt64) {
    let deadline = max(deadline, 1)  // 0 means none
    let newlyListed = target.guarded.withLock { guarded -> Bool in
      guarded.deadline = deadline
      guard !guarded.isListed, guarded.address != 0 else { return false }
      guarded.isListed = true
      return true
    }
    if newlyListed {
      // Under the mutex the thread is not scanning: it waits until `wakeAt`, and sees the
      // new target then, or now if its deadline comes first.
      pthread_mutex_lock(&mutex)
      targets[ObjectIdentifier(target)] = target
      startIfNeeded()
      wakeIfSleepingPast(deadline)
      pthread_mutex_unlock(&mutex)
    } else if deadline < wakeAt.load(ordering: .sequentiallyConsistent) {
      pthread_mutex_lock(&mutex)
      wakeIfSleepingPast(deadline)
      pthread_mutex_unlock(&mutex)
    }
  }

  /// Wakes the thread (it rescans) if it sleeps past `deadline`; the caller holds `mutex`,
  /// so the thread is waiting, or not started (it scans first when it starts).
  private func wakeIfSleepingPast(_ deadline: UInt64) {
    guard deadline < wakeAt.load(ordering: .sequentiallyConsistent) else { return }
    lowerHint(to: deadline)
    pthread_cond_signal(&condition)
  }

  /// The deadline armed for `target`'s state, if any.
  func deadline(of target: StopTarget) -> UInt64? {
    target.guarded.withLock { $0.deadline == 0 ? nil : $0.deadline }
  }

  /// Disarms the deadline of `target`'s state.
  func disarm(_ target: StopTarget) {
    target.guarded.withLock { $0.deadline = 0 }
  }

  /// Lowers ``hint`` to `deadline` if it is later.
  private func lowerHint(to deadline: UInt64) {
    var current = hint.load(ordering: .relaxed)
    while deadline < current {
      let (exchanged, original) = hint.compareExchange(
        expected: current, desired: deadline, ordering: .relaxed)
      if exchanged { return }
      current = original
    }
  }

  /// Forgets `target` (its state is closing).
  func unlist(_ target: StopTarget) {
    pthread_mutex_lock(&mutex)
    targets[ObjectIdentifier(target)] = nil
    pthread_mutex_unlock(&mutex)
  }

  /// Starts the thread the first time; the caller holds `mutex`.
  private func startIfNeeded() {
    guard !started else { return }
    started = true
    var thread = pthread_t()
    let context = Unmanaged.passUnretained(self).toOpaque()
    pthread_create(
      &thread, nil,
      { context in
        Unmanaged<Watchdog>.fromOpaque(context!).takeUnretainedValue().loop()
        return nil
      }, context)
    pthread_detach(thread)
  }

  /// Stops each state whose deadline has passed and returns the earliest one still ahead
  /// (UInt64.max: none). The caller holds `mutex`.
  private func fireAndFindEarliest() -> UInt64 {
    let now = Self.now()
    var earliest = UInt64.max
    for target in targets.values {
      target.guarded.withLock { guarded in
        guard guarded.deadline != 0 else { return }
        if guarded.deadline <= now {
          guarded.deadline = 0
          StopTarget.request(Int32(LH_STOP_TIMEOUT), in: &guarded)
        } else {
          earliest = min(earliest, guarded.deadline)
        }
      }
    }
    return earliest
  }

  private func loop() {
    // Signals (SIGINT for the REPL) belong to the host's threads, not to this one.
    var signals = sigset_t()
    sigfillset(&signals)
    pthread_sigmask(SIG_BLOCK, &signals, nil)
    pthread_mutex_lock(&mutex)
    while true {
      var earliest = fireAndFindEarliest()
      // Sleep no later than the deadline the last wake-up was for, if it is still ahead.
      let hinted = hint.exchange(.max, ordering: .relaxed)
      if hinted > Self.now() { earliest = min(earliest, hinted) }
      wakeAt.store(earliest, ordering: .sequentiallyConsistent)
      // An arm that read the previous `wakeAt` while the scan above ran, and so did not
      // signal, stored its deadline before that read: this second scan sees it. An arm
      // after the store above sees the new `wakeAt` and signals if it is earlier.
      if fireAndFindEarliest() < earliest { continue }
      if earliest == .max {
        pthread_cond_wait(&condition, &mutex)
      } else {
        var until = timespec(
          tv_sec: Int(earliest / 1_000_000_000), tv_nsec: Int(earliest % 1_000_000_000))
        pthread_cond_timedwait(&condition, &mutex, &until)
      }
    }
  }
}
