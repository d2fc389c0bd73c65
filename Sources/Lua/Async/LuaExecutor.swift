/// Where a Lua state's async work runs: a serial task executor whose jobs run on threads
/// of LuaHost's own, never on Swift's cooperative pool.
///
/// Each state has one, ``LuaState/executor``. The tasks that drive the state's coroutines
/// prefer it: those of ``LuaFunction/call(arguments:isolation:)`` and
/// ``LuaCoroutine/finish(isolation:)`` once the coroutine first waits, and a host's timers
/// and actions that wait. A step of Lua may run for as long as its deadline allows, or wait
/// for its state's lock while another thread holds it. On the cooperative pool, which has
/// one thread per core, a few such steps would hold every thread, and the app's tasks and
/// every other state would wait for them. Here each busy state holds a thread of its own,
/// and the kernel shares the cores among them all.
///
/// The executor's jobs run one at a time, in the order they came. Jobs of different
/// executors run at once on different threads. The pool runs as many as there are cores
/// at once; while executors wait, each thread whose jobs have run for 2 ms (a step that
/// loops, or waits for a lock) is matched by a new one, up to ``threadLimit``. A thread
/// that finds no work for two seconds ends, so states that wait cost no thread.
///
/// A host may prefer a state's executor for its own task that mostly runs Lua:
///
/// ```swift
/// Task(executorPreference: lua.executor) { try await lua.run("return work()") }
/// ```
public final class LuaExecutor: TaskExecutor, @unchecked Sendable {
  // `@unchecked Sendable`: `jobs` and `isScheduled` are read and written only while
  // holding the worker pool's mutex (see LuaWorkers).
  /// Jobs that came and have not run yet.
  var jobs: [UnownedJob] = []
  /// Whether the executor waits in the pool's queue of runnable executors, or a thread
  /// runs its jobs now: then a new job needs no thread of its own.
  var isScheduled = false

  /// How many threads the executors of a process may use at once (the pool's limit).
  /// Past it, runnable executors take turns, each running the jobs it had when its turn
  /// came.
  public static var threadLimit: Int { LuaWorkers.limit }

  /// Creates an executor. A state makes its own; a host may make one for work of its own
  /// that should stay off the cooperative pool.
  public init() {}

  /// Queues `job`; it runs on a thread of the pool once the jobs before it have run.
  public func enqueue(_ job: consuming ExecutorJob) {
    LuaWorkers.shared.enqueue(UnownedJob(job), on: self)
  }
}
