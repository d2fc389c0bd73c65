#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The threads that run ``LuaExecutor`` jobs: one process-wide pool.
///
/// A thread takes the runnable executor that has waited longest, runs the jobs it had
/// then, and puts it back at the end of the queue if more came meanwhile. The pool keeps
/// as many threads running at once as there are cores, as the cooperative pool does, so a
/// burst of short jobs (a thousand plugins' timers) costs no thread more. But a job of Lua
/// may run long, or wait for a lock: a thread whose batch has run for ``patience`` no
/// longer counts, and while executors wait, a supervisor starts a thread for each such
/// one, up to ``limit``. So every busy state soon has a thread of its own, and the kernel
/// shares the cores among them.
///
/// Idle threads wait last in, first out, each on its own condition: work goes to the one
/// that idled last, so threads beyond what the load needs find none and end after
/// ``idleTime``.
final class LuaWorkers: @unchecked Sendable {
  // `@unchecked Sendable`: every stored property but the constants is read and written
  // only while holding `mutex`, and so are the executors' `jobs` and `isScheduled` and
  // the workers' fields.
  static let shared = LuaWorkers()
  /// At most this many threads at once.
  static let limit = 1024
  /// Threads that run at once before any batch counts as long: one per core.
  static let eager = max(2, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
  /// How long a batch runs before its thread no longer counts as one that will be free
  /// soon (ns).
  static let patience: UInt64 = 2_000_000
  /// A thread with no work for this long ends (s).
  static let idleTime: UInt64 = 2
  /// Each thread's stack: as deep as a main thread's (Lua's C calls recurse on it).
  static let stackSize = 8 << 20

  /// A thread of the pool.
  private final class Worker {
    /// Where the thread waits while idle.
    let condition = LuaWorkers.makeCondition()
    /// Set when work is handed to the idle thread (it was taken off the idle stack).
    var isWoken = false
    /// When its current batch began (`Watchdog.now()`), or 0 while it runs none.
    var batchStart: UInt64 = 0

    deinit {
      pthread_cond_destroy(condition)
      condition.deallocate()
    }
  }

  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  /// Where the supervisor waits while no executor waits for a thread.
  private let supervisorWakes = LuaWorkers.makeCondition()
  /// Runnable executors, oldest first from `head`.
  private var runnable: [LuaExecutor] = []
  private var head = 0
  /// Every running thread of the pool, and the idle ones, the last to idle at the end.
  private var workers: [Worker] = []
  private var idle: [Worker] = []
  /// Threads asked for and not yet running.
  private var starting = 0
  private var supervisorStarted = false
  private var supervisorSleeps = false

  private init() {
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
  }

  /// Queues `job` on `executor`, and makes sure a thread will run it.
  func enqueue(_ job: UnownedJob, on executor: LuaExecutor) {
    pthread_mutex_lock(mutex)
    executor.jobs.append(job)
    var start = ThreadStart.none
    if !executor.isScheduled {
      executor.isScheduled = true
      runnable.append(executor)
      start = findThread()
    }
    pthread_mutex_unlock(mutex)
    switch start {
    case .none: break
    case .worker: startWorkers(1)
    case .supervisor: startSupervisor()
    }
  }

  /// What a queued executor needs started, once `mutex` is let go.
  private enum ThreadStart { case none, worker, supervisor }

  /// Wakes the thread that idled last, if one idles. The caller holds `mutex`.
  private func wakeIdleWorker() -> Bool {
    guard let worker = idle.popLast() else { return false }
    worker.isWoken = true
    pthread_cond_signal(worker.condition)
    return true
  }

  /// An executor has joined the queue: wakes the thread that idled last, or asks for a
  /// new thread while fewer than ``eager`` run, or else leaves it to the supervisor. The
  /// caller holds `mutex`.
  private func findThread() -> ThreadStart {
    if wakeIdleWorker() || starting >= runnable.count - head { return .none }
    if workers.count + starting < Self.eager {
      starting += 1
      return .worker
    }
    if !supervisorStarted {
      supervisorStarted = true
      return .supervisor
    }
    if supervisorSleeps { pthread_cond_signal(supervisorWakes) }
    return .none
  }

  /// A thread's life: runs executors' jobs until none comes for ``idleTime``.
  private func work() {
    let me = Worker()
    var batch: [UnownedJob] = []
    pthread_mutex_lock(mutex)
    starting -= 1
    workers.append(me)
    while true {
      if let executor = takeRunnable() {
        me.batchStart = Watchdog.now()
        swap(&batch, &executor.jobs)
        pthread_mutex_unlock(mutex)
        let target = executor.asUnownedTaskExecutor()
        for job in batch { job.runSynchronously(on: target) }
        batch.removeAll(keepingCapacity: true)
        pthread_mutex_lock(mutex)
        me.batchStart = 0
        if executor.jobs.isEmpty {
          executor.isScheduled = false
        } else {
          // Its turn again after the others'; this thread goes on with the oldest.
          runnable.append(executor)
          if !wakeIdleWorker(), supervisorSleeps {
            pthread_cond_signal(supervisorWakes)
          }
        }
        continue
      }
      me.isWoken = false
      idle.append(me)
      let deadline = Watchdog.now() + Self.idleTime * 1_000_000_000
      var waited: Int32 = 0
      while !me.isWoken, waited != ETIMEDOUT {
        waited = wait(on: me.condition, until: deadline)
      }
      if me.isWoken { continue }
      // No work came for it: it ends (a thread woken meanwhile takes what came).
      idle.removeAll { $0 === me }
      workers.removeAll { $0 === me }
      pthread_mutex_unlock(mutex)
      return
    }
  }

  /// The supervisor's life: while executors wait, every ``patience`` it starts a thread
  /// for each thread whose batch has run that long (up to the executors waiting and
  /// ``limit``). It never ends; it costs nothing while no executor waits.
  private func supervise() {
    pthread_mutex_lock(mutex)
    while true {
      let waiting = runnable.count - head
      if waiting == 0 {
        supervisorSleeps = true
        pthread_cond_wait(supervisorWakes, mutex)
        supervisorSleeps = false
        continue
      }
      let now = Watchdog.now()
      let long = workers.reduce(0) {
        $0 + ($1.batchStart != 0 && now - $1.batchStart >= Self.patience ? 1 : 0)
      }
      // Threads that will soon look for work: idle ones, new ones, and those in short
      // batches. The rest are busy for now, each holding a core's share, or a lock.
      let wanted = min(Self.limit, long + Self.eager) - (workers.count + starting)
      let starts = min(waiting - idle.count - starting, wanted)
      if starts > 0 {
        starting += starts
        pthread_mutex_unlock(mutex)
        startWorkers(starts)
        pthread_mutex_lock(mutex)
      }
      _ = wait(on: supervisorWakes, until: Watchdog.now() + Self.patience)
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

  /// Starts the supervisor, without holding `mutex`; if the system refuses, the next
  /// executor that waits asks again.
  private func startSupervisor() {
    guard !startThread(running: supervise) else { return }
    pthread_mutex_lock(mutex)
    supervisorStarted = false
    pthread_mutex_unlock(mutex)
  }

  /// Starts `count` threads, without holding `mutex`. One the system refuses is not
  /// counted as starting; the supervisor asks again later.
  private func startWorkers(_ count: Int) {
    for _ in 0..<count where !startThread(running: work) {
      pthread_mutex_lock(mutex)
      starting -= 1
      pthread_mutex_unlock(mutex)
    }
  }

  /// Starts a detached thread that runs `body` with the asynchronous signals blocked:
  /// SIGINT and the like belong to the host's threads (the REPL's read, Lua's interrupt).
  /// The synchronous ones stay: a write to a closed pipe ends the process with SIGPIPE,
  /// as it does on any other thread. False if the system refused the thread.
  private func startThread(running body: @escaping () -> Void) -> Bool {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, Self.stackSize)
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    var blocked = sigset_t()
    var previous = sigset_t()
    sigfillset(&blocked)
    for signal in [SIGPIPE, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS] {
      sigdelset(&blocked, signal)
    }
    // Blocked here, so that the thread starts with them blocked (it inherits the mask).
    pthread_sigmask(SIG_BLOCK, &blocked, &previous)
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
  /// `Watchdog.now()` time) passes; the result of `pthread_cond_timedwait`.
  private func wait(on condition: UnsafeMutablePointer<pthread_cond_t>, until deadline: UInt64)
    -> Int32
  {
    #if canImport(Darwin)
      // Darwin's condition variables take the wall clock.
      var wall = timespec()
      clock_gettime(CLOCK_REALTIME, &wall)
      let now = Watchdog.now()
      let delay = deadline > now ? deadline - now : 0
      let wallDeadline = UInt64(wall.tv_sec) * 1_000_000_000 + UInt64(wall.tv_nsec) + delay
      var until = timespec(
        tv_sec: Int(wallDeadline / 1_000_000_000), tv_nsec: Int(wallDeadline % 1_000_000_000))
    #else
      var until = timespec(
        tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
    #endif
    return pthread_cond_timedwait(condition, mutex, &until)
  }

  /// A condition variable that waits on the monotonic clock (where the system allows).
  static func makeCondition() -> UnsafeMutablePointer<pthread_cond_t> {
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
