import CLuaShim
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One thread for the whole process that stops calls whose deadline has passed.
///
/// Zero cost for running code: arming a deadline stores a number; no hook is installed
/// until the deadline passes, and then `lh_request_stop` hooks the running thread. The
/// thread sleeps until the earliest deadline, and is woken only when an earlier deadline
/// than the one it sleeps for is armed.
final class Watchdog: @unchecked Sendable {
  // @unchecked: every mutable field below is guarded by `mutex` (a pthread mutex, so that
  // the thread can wait on `condition`), except `wakeAt`, which is an atomic.
  static let shared = Watchdog()

  private var mutex = pthread_mutex_t()
  private var condition = pthread_cond_t()
  private var deadlines: [ObjectIdentifier: (deadline: UInt64, target: StopTarget)] = [:]
  private var started = false
  /// The time the thread will next wake, in monotonic nanoseconds (UInt64.max: never).
  private let wakeAt = Atomic<UInt64>(.max)

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

  /// Arms (or re-arms) the deadline of `owner`.
  func arm(_ owner: ObjectIdentifier, target: StopTarget, deadline: UInt64) {
    pthread_mutex_lock(&mutex)
    deadlines[owner] = (deadline, target)
    if !started {
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
    if deadline < wakeAt.load(ordering: .relaxed) { pthread_cond_signal(&condition) }
    pthread_mutex_unlock(&mutex)
  }

  /// The deadline armed for `owner`, if any.
  func deadline(of owner: ObjectIdentifier) -> UInt64? {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    return deadlines[owner]?.deadline
  }

  /// Disarms the deadline of `owner`.
  func disarm(_ owner: ObjectIdentifier) {
    pthread_mutex_lock(&mutex)
    deadlines[owner] = nil
    pthread_mutex_unlock(&mutex)
  }

  private func loop() {
    // Signals (SIGINT for the REPL) belong to the host's threads, not to this one.
    var signals = sigset_t()
    sigfillset(&signals)
    pthread_sigmask(SIG_BLOCK, &signals, nil)
    pthread_mutex_lock(&mutex)
    while true {
      let now = Self.now()
      var earliest = UInt64.max
      for (owner, entry) in deadlines {
        if entry.deadline <= now {
          entry.target.request(Int32(LH_STOP_TIMEOUT))
          deadlines[owner] = nil
        } else {
          earliest = min(earliest, entry.deadline)
        }
      }
      wakeAt.store(earliest, ordering: .relaxed)
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
