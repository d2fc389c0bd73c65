import CLua
import CLuaShim

/// A Lua function run as a coroutine that Swift drives, so that it may call async Swift
/// functions: each such call suspends the coroutine while the Swift work runs, and the
/// driver resumes it with the results.
///
/// Most code uses ``LuaFunction/call(arguments:isolation:)`` or
/// ``LuaState/run(_:name:isolation:)``. A host that must not wait (a button's action)
/// uses this type directly: ``start(arguments:)`` runs until the coroutine finishes or
/// first waits, synchronously, and ``finish(isolation:)`` goes on later, in a task.
///
/// Limits hold across suspensions: the state's `timeout` counts wall time from the start,
/// also while the coroutine waits (a pending operation is cancelled when it passes);
/// cancelling the task that runs ``finish(isolation:)`` stops the script (`.interrupted`)
/// and cancels the operation; a stopped or failed coroutine is never resumed again. The
/// memory limit holds as always.
///
/// Each step holds the state's lock (``LuaState/lock``), never across a suspension, so a
/// coroutine of a confined state may be finished on any thread. `step` lets a host wrap
/// each step in more (a tree sets its own lock aside there).
public final class LuaCoroutine {
  /// What ``start(arguments:)`` gave.
  public enum Progress {
    /// The coroutine finished with these results.
    case finished([LuaValue])
    /// The coroutine waits for an async function; ``finish(isolation:)`` goes on.
    case suspended
  }

  let core: LuaCore
  /// Anchors the coroutine (a Lua thread) while Swift drives it.
  let thread: LuaReference
  /// The function, until the coroutine starts (the coroutine holds it too).
  private var function: LuaFunction?
  /// The chunk, when the coroutine runs the C function that calls a main chunk.
  private let mainChunk: LuaFunction?
  private var pending: LuaAsyncOperation?
  /// The deadline (Watchdog time) of the whole run, from the state's timeout at creation,
  /// cut at its end of run.
  let deadline: UInt64?
  private var isDone = false
  /// Orders a cancel of the driving task against this coroutine's steps (see the type).
  private let latch = StepLatch()
  /// Runs each step; a host's lock goes here (see the type's documentation).
  public var step: (() -> Void) throws -> Void

  /// A coroutine that will run `function`.
  /// - Parameters:
  ///   - function: what the coroutine runs.
  ///   - asMainChunk: run `function` as the `lua` interpreter runs a script's main chunk,
  ///     from below a C function (see ``LuaFunction/callAsMainChunk(arguments:)``).
  ///   - step: runs each step (a synchronous stretch of Lua); by default, as is.
  /// - Throws: `usage` when the state is closed.
  public init(
    _ function: LuaFunction, asMainChunk: Bool = false,
    step: @escaping (() -> Void) throws -> Void = { $0() }
  ) throws {
    core = function.reference.core
    let stack = try LuaStack(core)
    try stack.reserve(2)
    if asMainChunk {
      lh_pushcallmain(stack.L)
      mainChunk = function
    } else {
      try stack.push(function.reference)
      mainChunk = nil
    }
    _ = lh_newdriven(stack.L)
    thread = stack.reference(at: -1)
    stack.pop()
    self.function = function
    self.step = step
    deadline = core.deadline(startingAt: Watchdog.now())
  }

  /// A coroutine that ``start(_:receiver:arguments:)`` left waiting.
  private init(
    core: LuaCore, thread: LuaReference, deadline: UInt64?, pending: @escaping LuaAsyncOperation
  ) {
    self.core = core
    self.thread = thread
    self.deadline = deadline
    self.pending = pending
    function = nil
    mainChunk = nil
    step = { $0() }
  }

  /// Runs `function` with `arguments` on a task-driven coroutine until it finishes or first
  /// waits, as a host runs an action: nil when it finished (its results are dropped), else
  /// the coroutine, to ``finish(isolation:)`` later (set its ``step`` first). A coroutine
  /// that finished goes back to a pool of the state, so this costs little more than a call.
  ///
  /// A `receiver` goes before `arguments`, as the userdata ``LuaState/userdata(_:)`` gives
  /// for it, pushed in place: no ``LuaValue`` (a registry reference, made and released
  /// again) is made for it, as for a view that its own action receives as `self`.
  /// - Throws: ``LuaError`` as a call does.
  public static func start(
    _ function: LuaFunction, receiver: AnyObject? = nil, arguments: [LuaValue]
  ) throws -> LuaCoroutine? {
    let core = function.reference.core
    let stack = try LuaStack(core)
    let base = stack.top
    defer { lua_settop(stack.L, base) }
    try stack.reserve(arguments.count + 5)
    lh_pushmsgh(stack.L)
    lh_pushstep(stack.L)
    let thread: LuaReference
    if let idle = core.idleThreads.popLast() {
      thread = idle
      try stack.push(thread)
    } else {
      _ = lh_pushdriven(stack.L)
      thread = stack.reference(at: -1)
    }
    try stack.push(function.reference)
    if let receiver { try stack.pushObject(receiver) }
    for argument in arguments { try stack.push(argument) }
    let now = Watchdog.now()
    let deadline = core.deadline(startingAt: now)
    if let deadline, deadline <= now { throw Self.timedOut }  // the run's end has come
    let values = Int32(arguments.count + (receiver == nil ? 2 : 3))
    let operation = try step(stack, core: core, values: values, deadline: deadline)
    guard let operation else {
      if core.idleThreads.count < 8 { core.idleThreads.append(thread) }
      return nil
    }
    return LuaCoroutine(core: core, thread: thread, deadline: deadline, pending: operation)
  }

  /// Runs the coroutine with `arguments` until it finishes or first waits for an async
  /// function.
  /// - Throws: ``LuaError`` as a call does; `usage` if it already started.
  public func start(arguments: [LuaValue] = []) throws -> Progress {
    guard let function else { throw LuaError(usage: "the coroutine has already started") }
    self.function = nil
    _ = function
    let arguments = mainChunk.map { [.function($0)] + arguments } ?? arguments
    return try resume { stack in
      try stack.reserve(arguments.count)
      for argument in arguments { try stack.push(argument) }
      return Int32(arguments.count)
    }
  }

  /// Runs the coroutine to its end: awaits each operation it waits for and resumes it, on
  /// the state's executor (``LuaState/executor``), off the cooperative pool; a caller
  /// isolated to an actor keeps the steps on that actor.
  /// - Throws: ``LuaError``: the script's error, `.timeout` when the state's deadline
  ///   passes (while running or waiting), `.interrupted` when the task is cancelled.
  public func finish(isolation: isolated (any Actor)? = #isolation) async throws -> [LuaValue] {
    try await stoppingOnCancel { try await self.resumeUntilDone() }
  }

  /// Runs `body` so that cancelling the task stops the Lua code running meanwhile (as an
  /// interrupt). A stop requested while no step runs is forgotten afterwards, so it cannot
  /// reach the state's next call. (Package: the hosting layer drives its coroutines so.)
  package func stoppingOnCancel<T>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
  ) async throws -> T {
    let target = core.stopTarget
    let latch = latch
    // The stop is the state's: forget it in a step, under the state's owner.
    defer {
      try? step { try? self.core.withLock { if let L = self.core.main { lh_clearstop(L) } } }
    }
    return try await withTaskCancellationHandler {
      try await body()
    } onCancel: {
      // Only this coroutine's running step is stopped, by an interrupt of its own entry
      // (see StepLatch): one that has not begun sees the cancel and does not run; one
      // whose entry has not opened yet finds the interrupt as it opens; one that has
      // ended leaves the interrupt stale.
      if let entry = latch.cancel() {
        target.withOpenState { _ = lh_request_stop_seen($0, Int32(LH_STOP_INTERRUPT), entry) }
      }
    }
  }

  /// Runs the rest of a coroutine that waits. Unless the caller is isolated to an actor,
  /// the rest runs on the state's executor (``LuaExecutor``), not on the cooperative pool:
  /// the operations it waits for too, where they are not isolated elsewhere.
  package func resumeUntilDone(isolation: isolated (any Actor)? = #isolation) async throws
    -> [LuaValue]
  {
    try await withTaskExecutorPreference(core.executor, isolation: isolation) {
      try await resumeUntilDeadline(isolation: isolation)
    }
  }

  private func resumeUntilDeadline(isolation: isolated (any Actor)?) async throws -> [LuaValue] {
    guard let deadline else { return try await resumeEach() }
    // With a deadline, the rest of the run is one task (on this executor) that a timer
    // cancels when the deadline passes: the operation waiting then sees the cancellation,
    // at the cost of two tasks per run, not per call. The box is unchecked: the coroutine
    // and its results stay on this executor, and this function waits for the task.
    let coroutine = UncheckedBox(self)
    let work = Task(executorPreference: core.executor) {
      () async throws -> UncheckedBox<[LuaValue]> in
      _ = isolation
      return UncheckedBox(try await coroutine.value.resumeEach())
    }
    let now = Watchdog.now()  // read once: read twice, it could pass the deadline between
    let remaining = deadline > now ? deadline - now : 0
    let timer = Task {
      // Cancelled as most runs end: see SleepQueue.
      try await SleepQueue.shared.sleep(until: .now + .nanoseconds(remaining))
      work.cancel()
    }
    defer { timer.cancel() }
    let result = await withTaskCancellationHandler {
      await work.result
    } onCancel: {
      work.cancel()
    }
    if case .failure(let error) = result, !Task.isCancelled, Watchdog.now() >= deadline {
      // The deadline's stop (or the cancellation it made) ended the run: a timeout, with
      // the frames it stopped, if it stopped running code (not a wait).
      // Stopped while waiting (or as it woke, past the deadline), it has no frames of its
      // own: those of the wait are shown.
      var stopped = error as? LuaError ?? Self.timedOut
      if stopped.kind != .timeout {
        stopped = LuaError(
          kind: .timeout, message: Self.timedOut.message, traceback: stopped.traceback)
      }
      if stopped.traceback.isEmpty { stopped.traceback = waitingTraceback() }
      throw stopped
    }
    return try result.get().value
  }

  /// Where the coroutine waits (its frames, from the async function it called), read in a
  /// step; empty unless it is suspended.
  private func waitingTraceback() -> LuaTraceback {
    var traceback = LuaTraceback()
    try? step {
      try? self.core.withLock {
        let stack = try LuaStack(self.core)
        try stack.reserve(1)
        try stack.push(self.thread)
        defer { stack.pop() }
        guard let co = lua_tothread(stack.L, -1), lua_status(co) == LUA_YIELD else { return }
        traceback = LuaTraceback(taking: lh_trace_thread(co))
      }
    }
    return traceback
  }

  /// Awaits each operation the coroutine waits for and resumes it, until it finishes.
  private func resumeEach(isolation: isolated (any Actor)? = #isolation) async throws
    -> [LuaValue]
  {
    while !isDone {
      guard let operation = pending else {
        throw LuaError(usage: "the coroutine has not started, or is running")
      }
      pending = nil
      let outcome: Result<[LuaValue], any Error>
      if Task.isCancelled {
        outcome = .failure(Self.interrupted)
      } else {
        do {
          outcome = .success(try await operation())
        } catch {
          outcome = .failure(Task.isCancelled ? Self.interrupted : error)
        }
      }
      if case .failure(let error as LuaError) = outcome, error.kind == .interrupted {
        isDone = true
        throw error
      }
      let progress = try resume { stack in
        let base = stack.top
        var count: Int32 = 2
        switch outcome {
        case .success(let results):
          try stack.reserve(results.count + 1)
          lua_pushboolean(stack.L, 1)
          for value in results { try stack.push(value) }
          count = Int32(results.count + 1)
        case .failure(let error):
          lua_pushboolean(stack.L, 0)
          stack.pushError(error)
        }
        // Results or an error past the memory limit: the call fails with a memory error
        // where it was made.
        if stack.resultsFit(above: base) { return count }
        lua_pushboolean(stack.L, 0)
        stack.pushError(LuaError(kind: .memory, message: "not enough memory"))
        return 2
      }
      if case .finished(let results) = progress { return results }
    }
    throw LuaError(usage: "the coroutine has finished")
  }

  // MARK: Steps

  /// One step: resumes the coroutine with what `push` pushes. [-0, +0]
  private func resume(pushing push: (LuaStack) throws -> Int32) throws -> Progress {
    // nil until the step runs: an error made up front would be allocated on every step.
    var outcome: Result<Progress, any Error>?
    // Inside the host's step, holding the state's lock (its one owner): a step may run on
    // any thread, and a host's step may first set other locks aside. A step refused (its
    // lock would deadlock) fails the coroutine with that error.
    do {
      try step { outcome = Result { try self.core.withLock { try self.runStep(pushing: push) } } }
    } catch {
      outcome = .failure(error)
    }
    guard case .success(let progress) = outcome else {
      isDone = true
      if case .failure(let error) = outcome { throw error }
      throw LuaError(usage: "the host's step did not run the coroutine")
    }
    return progress
  }

  private func runStep(pushing push: (LuaStack) throws -> Int32) throws -> Progress {
    if isDone { throw LuaError(usage: "the coroutine has finished") }
    let stack = try LuaStack(core)
    // The step's entry: the next outermost one (odd), or the one it runs inside.
    let entry = lh_entries(lh_getstate(stack.L)) | 1
    guard !Task.isCancelled, latch.enter(entry: entry) else { throw Self.interrupted }
    defer { latch.leave() }
    if let deadline, Watchdog.now() >= deadline { throw Self.timedOut }
    let base = stack.top
    defer { lua_settop(stack.L, base) }
    try stack.reserve(4)
    lh_pushmsgh(stack.L)
    lh_pushstep(stack.L)
    try stack.push(thread)
    let count = try push(stack)
    // The room Lua gives lh_step, a C function, made here with the limit off: made by the
    // call, at the limit, it would fail the step with a memory error out of the script's
    // reach, where the values pushed above are checked inside the coroutine (lh_async_k).
    try stack.reserve(Int(LUA_MINSTACK))
    if let operation = try Self.step(stack, core: core, values: count + 1, deadline: deadline) {
      pending = operation
      return .suspended
    }
    isDone = true
    return .finished((base + 2..<stack.top + 1).map { stack.value(at: $0) })
  }

  /// Runs lh_step, pushed above the message handler with `values` values (the thread
  /// first), under `deadline` if this is the outermost call. Returns the operation the
  /// coroutine waits for, or nil when it finished (its results above the handler).
  @inline(__always) private static func step(
    _ stack: LuaStack, core: LuaCore, values: Int32, deadline: UInt64?
  ) throws -> LuaAsyncOperation? {
    let state = lh_getstate(stack.L)!
    let saved = (state.pointee.stepping, state.pointee.stepped)
    defer { (state.pointee.stepping, state.pointee.stepped) = saved }
    let outermost = state.pointee.depth == 0
    if outermost, let deadline {
      Watchdog.shared.arm(core.stopTarget, deadline: deadline)
    }
    let status = lh_pcallh(stack.L, values, LUA_MULTRET)
    if outermost, deadline != nil {
      Watchdog.shared.disarm(core.stopTarget)
      lh_clearstop(stack.L)
    }
    // Taken whatever happened: an operation whose start a script's `pcall` caught (its
    // results refused at the memory limit) must not keep what it captured alive.
    let operation = core.pendingOperation
    core.pendingOperation = nil
    guard status == LUA_OK else { throw stack.popError(status: status) }
    let waits = lua_toboolean(stack.L, -1) != 0
    stack.pop()
    guard waits else { return nil }
    guard let operation else {
      throw LuaError(usage: "an async function suspended without an operation")
    }
    return operation
  }

  static var interrupted: LuaError { LuaError(kind: .interrupted, message: "interrupted") }
  static var timedOut: LuaError { LuaError(kind: .timeout, message: "execution timed out") }
}

/// A value that crosses into a task running on the same executor, where its non-Sendable
/// contents never run concurrently with their owner (see `LuaCoroutine.perform`).
struct UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

extension LuaFunction {
  /// Calls the function as a coroutine driven by the current task, so that it (and what
  /// it calls) may call async Swift functions; returns all its results.
  /// - Throws: ``LuaError`` as ``call(arguments:)``, `.timeout` when the state's deadline
  ///   passes while it runs or waits, `.interrupted` when the task is cancelled.
  @discardableResult
  public func call(
    arguments: [LuaValue] = [], isolation: isolated (any Actor)? = #isolation
  ) async throws -> [LuaValue] {
    let coroutine = try LuaCoroutine(self)
    return try await coroutine.stoppingOnCancel {
      if case .finished(let results) = try coroutine.start(arguments: arguments) { return results }
      return try await coroutine.resumeUntilDone()
    }
  }
}

extension LuaState {
  /// Loads and runs a chunk as a coroutine driven by the current task (see
  /// ``LuaFunction/call(arguments:isolation:)``): its main code may call async functions.
  /// - Throws: ``LuaError``: `.syntax` if it does not compile, or as the async `call`.
  @discardableResult
  public func run(
    _ code: String, name: String? = nil, isolation: isolated (any Actor)? = #isolation
  ) async throws -> [LuaValue] {
    try await load(code, name: name).call()
  }
}
