#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The threads that run ``LuaExecutor`` jobs: one process-wide pool.
///
/// A thread takes the runnable executor that has waited longest, runs the jobs it had
/// then, and puts it back at the end of the queue if more came meanwhile. The pool keeps
/// as many threads as there are cores busy at once, as the cooperative pool does, so a
/// burst of short jobs (a thousand plugins' timers) costs no thread more. But a job of Lua
/// may run long, or wait for a lock: when a runnable executor has waited ``patience`` for
/// a thread, a supervisor starts one more for it, up to ``limit``. So every busy state soon
/// has a thread of its own, and the kernel shares the cores among them. A thread that has
/// found no work for ``idleTime`` ends.
final class LuaWorkers: @unchecked Sendable {
  // `@unchecked Sendable`: every stored property but the constants is read and written
  // only while holding `mutex`, and so are the executors' `jobs`, `isScheduled` and
  // `waitingSince`.
  static let shared = LuaWorkers()
  /// At most this many threads at once.
  static let limit = 1024
  /// Threads started at once, without waiting: one per core.
  static let eager = max(2, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
  /// How long a runnable executor waits for a busy thread before it gets a new one (ns).
  static let patience: UInt64 = 2_000_000
  /// A thread with no work for this long ends (s).
  static let idleTime = 2
  /// Each thread's stack: as deep as a main thread's (Lua's C calls recurse on it).
  static let stackSize = 8 << 20

  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  /// Where idle threads wait for work.
  private let workAvailable: UnsafeMutablePointer<pthread_cond_t>
  /// Where the supervisor waits for an executor that waits.
  private let supervisorWakes: UnsafeMutablePointer<pthread_cond_t>
  /// Runnable executors, oldest first from `head`.
  private var runnable: [LuaExecutor] = []
  private var head = 0
  /// Threads of the pool, and how many of them wait for work.
  private var threads = 0
  private var idle = 0
  private var supervisorStarted = false
  /// The supervisor waits with no time limit (nothing waits for a thread).
  private var supervisorSleeps = false

  private init() {
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
    workAvailable = Self.makeCondition()
    supervisorWakes = Self.makeCondition()
  }

  /// Queues `job` on `executor`, and makes sure a thread will run it.
  func enqueue(_ job: UnownedJob, on executor: LuaExecutor) {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    executor.jobs.append(job)
    guard !executor.isScheduled else { return }
    executor.isScheduled = true
    makeRunnable(executor)
  }

  /// Puts `executor` at the end of the queue and sees that a thread will take it: an idle
  /// one, a new one while fewer than ``eager`` run, or else the supervisor's, once it has
  /// waited ``patience``. The caller holds `mutex`.
  private func makeRunnable(_ executor: LuaExecutor) {
    executor.waitingSince = Self.now()
    runnable.append(executor)
    // A thread signalled before may not have woken yet: each waiting executor counts one.
    if idle >= runnable.count - head {
      pthread_cond_signal(workAvailable)
    } else if threads < Self.eager, startThread(running: work) {
      threads += 1
    } else if !supervisorStarted {
      supervisorStarted = startThread(running: supervise)
    } else if supervisorSleeps {
      pthread_cond_signal(supervisorWakes)
    }
  }

  /// A thread's life: runs executors' jobs until none comes for ``idleTime``.
  private func work() {
    var batch: [UnownedJob] = []
    pthread_mutex_lock(mutex)
    while true {
      if let executor = takeRunnable() {
        swap(&batch, &executor.jobs)
        pthread_mutex_unlock(mutex)
        let target = executor.asUnownedTaskExecutor()
        for job in batch { job.runSynchronously(on: target) }
        batch.removeAll(keepingCapacity: true)
        pthread_mutex_lock(mutex)
        if executor.jobs.isEmpty {
          executor.isScheduled = false
        } else {
          makeRunnable(executor)
        }
        continue
      }
      idle += 1
      let waited = wait(
        on: workAvailable, until: Self.now() + UInt64(Self.idleTime) * 1_000_000_000)
      idle -= 1
      if waited == ETIMEDOUT, head >= runnable.count {
        threads -= 1
        pthread_mutex_unlock(mutex)
        return
      }
    }
  }

  /// The supervisor's life: starts a thread for each runnable executor that has waited
  /// ``patience`` while no thread was free. It never ends (it costs nothing while it waits).
  private func supervise() {
    pthread_mutex_lock(mutex)
    while true {
      let now = Self.now()
      var overdue = 0
      var nextDue = UInt64.max
      for index in head..<runnable.count {
        let due = runnable[index].waitingSince + Self.patience
        if due <= now { overdue += 1 } else { nextDue = min(nextDue, due) }
      }
      // Idle threads take the oldest; the rest get new ones.
      var starting = min(overdue - min(overdue, idle), Self.limit - threads)
      while starting > 0, startThread(running: work) {
        threads += 1
        starting -= 1
      }
      if starting > 0 || (nextDue == .max && overdue > idle && threads < Self.limit) {
        // The system refused a thread: try again after a while.
        nextDue = now + Self.patience
      }
      supervisorSleeps = nextDue == .max
      if supervisorSleeps {
        pthread_cond_wait(supervisorWakes, mutex)
      } else {
        _ = wait(on: supervisorWakes, until: nextDue)
      }
      supervisorSleeps = false
    }
  }

  /// The executor that has waited longest, taken off the queue; nil if none waits.
  private func takeRunnable() -> LuaExecutor? {
    guard head < runnable.count else { return nil }
    let executor = runnable[head]
    head += 1
    if head == runnable.count {
      runnable.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 64, head * 2 >= runnable.count {
      runnable.removeFirst(head)
      head = 0
    }
    return executor
  }

  // MARK: Threads and time

  /// Starts a detached thread that runs `body` with every signal blocked (SIGINT belongs
  /// to the host's threads: the REPL's read, Lua's interrupt); false if the system refused.
  private func startThread(running body: @escaping () -> Void) -> Bool {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, Self.stackSize)
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    var all = sigset_t()
    var previous = sigset_t()
    sigfillset(&all)
    // Blocked here, so that the thread starts with them blocked (it inherits the mask).
    pthread_sigmask(SIG_SETMASK, &all, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    #if canImport(Darwin)
      var thread: pthread_t?
    #else
      var thread = pthread_t()
    #endif
    let started =
      pthread_create(
        &thread, &attributes,
        { context in
          Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().body()
          return nil
        }, context) == 0
    if !started { Unmanaged<ThreadBody>.fromOpaque(context).release() }
    return started
  }

  /// Waits on `condition` (holding `mutex`) until it is signalled or `deadline` (in
  /// ``now()`` time) passes; the result of `pthread_cond_timedwait`.
  private func wait(on condition: UnsafeMutablePointer<pthread_cond_t>, until deadline: UInt64)
    -> Int32
  {
    #if canImport(Darwin)
      // Darwin's condition variables take the wall clock.
      var wall = timespec()
      clock_gettime(CLOCK_REALTIME, &wall)
      let delay = deadline > Self.now() ? deadline - Self.now() : 0
      let wallDeadline = UInt64(wall.tv_sec) * 1_000_000_000 + UInt64(wall.tv_nsec) + delay
      var until = timespec(
        tv_sec: Int(wallDeadline / 1_000_000_000), tv_nsec: Int(wallDeadline % 1_000_000_000))
    #else
      var until = timespec(
        tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
    #endif
    return pthread_cond_timedwait(condition, mutex, &until)
  }

  /// Monotonic time in nanoseconds.
  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  /// A condition variable that waits on the monotonic clock (where the system allows).
  private static func makeCondition() -> UnsafeMutablePointer<pthread_cond_t> {
    let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    #if !canImport(Darwin)
      pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    #endif
    pthread_cond_init(condition, &attributes)
    pthread_condattr_destroy(&attributes)
    return condition
  }
}

/// What a new thread runs, passed to it through `pthread_create`'s context pointer.
private final class ThreadBody {
  let body: () -> Void
  init(_ body: @escaping () -> Void) { self.body = body }
}
