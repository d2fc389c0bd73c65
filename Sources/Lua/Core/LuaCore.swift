import CLua
import CLuaShim
import Synchronization

/// The single owner of a raw `lua_State` pointer.
///
/// Invariants:
/// - `main` is non-nil until `close()`, which runs exactly once.
/// - Swift code only touches the stack of `current`: the thread that is running right now
///   (the main thread, or the coroutine whose call reached a Swift closure).
/// - Registry references dropped on any thread are queued in `releases` and freed on the
///   state's own thread at the next operation, so dropping a value is always safe.
/// - Once ``confine()`` ran, every entry from Swift (``thread()``) runs on the thread that
///   holds ``lock``; ``close()`` takes the lock itself, and a close asked for while Lua code
///   of this state is on the stack waits until that code has returned (``withLock(_:)``).
final class LuaCore {
  /// The main thread; nil once closed.
  private(set) var main: OpaquePointer?
  /// The state's C data, kept (`lh_state_retain`) as long as this core: references dropped
  /// on other threads mark it (``release(_:)``) even after the state closed.
  let shared: UnsafeMutablePointer<lh_state>
  /// The thread Swift code must use for stack operations: the main thread, or the thread
  /// whose call reached a Swift closure (set by `lh_dispatchboxed` for the call); nil once
  /// closed.
  var current: OpaquePointer? { shared.pointee.current }
  /// Metatables of Swift classes exposed as userdata, as registry references.
  var objectMetatables: [ObjectIdentifier: Int32] = [:]
  /// Registry reference of the weak-valued table that maps object addresses to userdata.
  var objectCache: Int32?
  /// Field and method names of those classes, for completion.
  var objectMemberNames: [ObjectIdentifier: [String]] = [:]
  /// Property getters of those classes, type-erased, for reads that must not run Lua.
  var objectGetters: [ObjectIdentifier: [String: (AnyObject, LuaState) throws -> LuaValue]] = [:]
  /// Names of those classes, for error messages.
  var objectTypeNames: [ObjectIdentifier: String] = [:]

  /// Swift objects retained for Lua userdata whose `__gc` has not handed them back yet.
  /// Lua can skip a finalizer (see `lh_box_gc`); `close()` releases whatever is left here.
  /// Counted: one object can back two userdata at once (a new one made while the old one
  /// waits for its finalizer), each holding one retain.
  var liveBoxes: [UnsafeMutableRawPointer: Int] = [:]
  /// Releases of boxes whose object a method or property call has lent (`lh_lend`):
  /// they run when the last lending ends (`releaseLent`).
  var lentReleases: [UnsafeMutableRawPointer] = []
  /// Stops running code from any thread; invalidated before the state closes.
  let stopTarget: StopTarget
  /// The account for Swift-side memory charged to this state, once asked for.
  var memoryAccount: LuaMemoryAccount?
  /// The deadline given to each outermost call, in nanoseconds; nil for none.
  var timeout: UInt64? {
    didSet { limitsTime = timeout != nil || endOfRun != .max }
  }
  /// The instant (Watchdog time) past which no call runs, however it started; `.max` for
  /// none. Every call's deadline is the earlier of its own and this.
  var endOfRun = UInt64.max {
    didSet { limitsTime = timeout != nil || endOfRun != .max }
  }
  /// Whether calls run under a deadline at all: the one flag the hot path reads.
  private(set) var limitsTime = false

  /// The deadline of a call (or a task-driven coroutine's whole run) that starts at `now`,
  /// or nil for none: its own timeout from now, cut at the end of the run.
  @inline(__always)
  func deadline(startingAt now: UInt64) -> UInt64? {
    guard limitsTime else { return nil }
    guard let timeout else { return endOfRun }
    let (own, overflow) = now.addingReportingOverflow(timeout)
    return min(overflow ? .max : own, endOfRun)
  }
  /// How long the finalizers at close may run, in nanoseconds; < 0: the default (see
  /// `LuaState.finalizerTimeoutAtClose`). Set from any thread.
  let closeTimeout = Atomic<Int64>(-1)
  /// Whether the last close stopped finalizers at their deadline.
  let closeStopped = Atomic<Bool>(false)
  /// The operation an async Swift function just started, until the coroutine driving it
  /// takes it (right after the yield: see `LuaCoroutine`).
  var pendingOperation: LuaAsyncOperation?
  /// Task-driven coroutines that finished cleanly, for ``LuaCoroutine/start(_:receiver:arguments:)``
  /// to reuse (a finished Lua thread may run a new function). Only `start` touches it, with
  /// one pop and one append that call nothing: unchecked, as no access can overlap them.
  @exclusivity(unchecked) var idleThreads: [LuaReference] = []
  /// The `LuaState` that owns this core, for conversions that need one (`luaValue(in:)`),
  /// or `nil` once it is gone.
  ///
  /// Weak: an open core does not always have a live owner. The owner's deinit closes the
  /// core, but a close asked for while the state's own code runs waits for that code to
  /// return (a host that kept only a `LuaFunction` drops the state inside it), and a close
  /// on another thread waits for the lock while a step that holds only the core runs. In
  /// both windows the owner is being freed: a weak read gives `nil`, never a freed object.
  weak var owner: LuaState?
  /// The state's one owner once it is shared between threads: see ``confine()``.
  let lock = ReentrantLock()
  /// Where the state's async work runs (see ``LuaExecutor``).
  let executor = LuaExecutor()
  /// Whether every use must hold ``lock``. Set once, before the state is shared.
  private(set) var isConfined = false
  /// Where the sandbox's warning lines go (see `lh_setwarnsink`); released after the
  /// state is closed (closing may still warn).
  var warningSink: AnyObject?
  /// The lock that Swift functions made now hold on every call (see
  /// ``LuaState/withCallbackGate(_:_:)``); nil almost always.
  var callbackGate: ReentrantLock?
  /// A close asked for while Lua code of this state ran; done once that code returned.
  private var closeRequested = false

  private let releases = LockedValue<[Int32]>([])

  /// Creates a state; nil when even that allocation fails.
  init?(memoryLimit: Int?) {
    let limit = memoryLimit.map { max($0, 0) } ?? Self.noLimit
    guard let L = lh_newstate(limit) else { return nil }
    main = L
    shared = lh_getstate(L)
    lh_state_retain(shared)
    stopTarget = StopTarget(shared)
    shared.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
  }

  deinit {
    close()
    lh_state_release(shared)
  }

  /// From now on every use of the state must hold ``lock``: a use from a thread that does
  /// not hold it fails (see ``thread()``). Call it before the state is shared.
  func confine() { isConfined = true }

  /// Runs `body` with the collector stopped: for setting a state up (its libraries, the
  /// sandbox's policy), where everything made stays alive and collecting meanwhile would
  /// only traverse it. Restarting sets the collector's debt to zero, so the skipped steps
  /// are not paid later either.
  func withCollectorPaused<T>(_ body: () throws -> T) throws -> T {
    let L = try LuaStack(self).L
    lh_pausecollector(L, 1)
    defer { lh_pausecollector(L, 0) }
    return try body()
  }

  /// Runs `body` holding ``lock``; the outermost one also carries out a close that was asked
  /// for meanwhile from inside the state's own code.
  /// - Throws: `body`'s error, or (`usage`) when waiting for the lock would deadlock (see
  ///   ``ReentrantLock/lockRefusingCycles()``).
  func withLock<T>(_ body: () throws -> T) throws -> T {
    try lock.lockOrRefuse()
    defer {
      if closeRequested, lock.holdCount == 1 { closeIfRequested() }
      lock.unlock()
    }
    return try body()
  }

  /// Closes the state: runs pending `__close`/`__gc` work and releases every Swift box.
  /// Takes the lock. Asked for while Lua code of this state runs (a Swift function that Lua
  /// called closes its own state), it only marks the state: the code and the Swift frames
  /// below it go on with an open state, and the close happens when the outermost
  /// ``withLock(_:)`` ends, or at the next entry (``thread()``).
  func close() {
    lock.lock()
    defer { lock.unlock() }
    guard let L = main else { return }
    // Someone below still uses the state: Lua code (depth), or an outer lock section
    // whose Swift frames may hold the raw stack.
    if lh_getstate(L).pointee.depth > 0 || lock.holdCount > 1 && isConfined {
      closeRequested = true
      return
    }
    closeNow(L)
  }

  /// Carries out a requested close once nothing uses the state (call holding the lock).
  private func closeIfRequested() {
    guard closeRequested, let L = main, lh_getstate(L).pointee.depth == 0,
      lock.holdCount <= 1
    else { return }
    closeNow(L)
  }

  private func closeNow(_ L: OpaquePointer) {
    closeRequested = false
    main = nil
    shared.pointee.current = nil  // a Swift function a finalizer calls sets its own thread
    finalizeDeferred(L)
    stopTarget.invalidate()  // and disarms it
    lh_close(L)
    warningSink = nil
    // The pooled threads' references hold this core: let go of them, or the core and
    // what it holds would outlive the state (a cycle).
    idleThreads.removeAll()
    pendingOperation = nil
    // Finalizers Lua skipped: release those boxes now, so nothing outlives the state.
    let leftover = liveBoxes
    liveBoxes.removeAll()
    // None wait here (the state does not close while a call runs, so none is lent as
    // its finalizers run); were one left, it is released, as the boxes above are.
    for box in lentReleases { Unmanaged<AnyObject>.fromOpaque(box).release() }
    lentReleases = []
    for (box, count) in leftover {
      for _ in 0..<count { Unmanaged<AnyObject>.fromOpaque(box).release() }
    }
    // The getters may capture Lua values, whose references hold this core: drop them so
    // that the cycle core -> getter -> reference -> core does not outlive the state.
    objectGetters = [:]
    objectMemberNames = [:]
  }

  var isClosed: Bool { main == nil }

  /// Runs the sandbox's deferred finalizers of every object still alive, as `lua_close`
  /// would run `__gc`, under `closeTimeout`, else the state's deadline, else a second.
  private func finalizeDeferred(_ L: OpaquePointer) {
    guard lh_uses_finalizers(L) != 0 else { return }
    let watchdog = Watchdog.shared
    let budget = closeTimeout.load(ordering: .relaxed)
    let allowed = budget >= 0 ? UInt64(budget) : (timeout ?? 1_000_000_000)
    let (deadline, overflow) = Watchdog.now().addingReportingOverflow(allowed)
    watchdog.arm(stopTarget, deadline: min(overflow ? .max : deadline, endOfRun))
    closeStopped.store(lh_finalize_all(L) != 0, ordering: .relaxed)
    watchdog.disarm(stopTarget)
    lh_clearstop(L)
  }

  /// The thread to use, or a `usage` error once closed. The guard of a confined state: it
  /// fails unless the calling thread holds ``lock``.
  @inline(__always)
  func thread() throws -> OpaquePointer {
    if isConfined, !lock.isHeldByCurrentThread { try usedWithoutLock() }
    guard let L = current else { throw LuaError(usage: "the Lua state is closed") }
    if closeRequested {
      closeIfRequested()
      if main == nil { throw LuaError(usage: "the Lua state is closed") }
    }
    if lh_has_releases(shared) != 0 { drainReleases(L) }
    return L
  }

  /// A use of a confined state from a thread that does not hold its lock: a bug in the
  /// host (two threads would run one `lua_State`). Debug builds stop at once, so the race
  /// is a deterministic failure; release builds throw.
  @inline(never)
  private func usedWithoutLock() throws {
    let message =
      "a Lua state confined to its lock was used by a thread that does not hold it "
      + "(use ScriptedTree.withState or LuaState.withLock)"
    assertionFailure(message)
    throw LuaError(usage: message)
  }

  /// Queues a registry slot for release; callable from any thread.
  func release(_ ref: Int32) {
    releases.withLock { $0.append(ref) }
    lh_mark_releases(shared)
  }

  /// Frees the registry slots queued for release on `L`, the thread running now: as a
  /// Swift closure returns to Lua (`lh_swift_drain`, when `lh_has_releases`), with its
  /// results (or its error) on the stack, which this leaves as they are. [-0, +0]
  func releaseQueued(_ L: OpaquePointer) {
    // luaL_unref needs a slot; with none to spare, the next entry into the state frees them.
    if lua_checkstack(L, 2) != 0 { drainReleases(L) }
  }

  private func drainReleases(_ L: OpaquePointer) {
    // The mark goes first: a slot queued after the take below marks the state again.
    lh_clear_releases(shared)
    let refs = releases.withLock { refs -> [Int32] in
      let taken = refs
      refs.removeAll(keepingCapacity: true)
      return taken
    }
    for ref in refs { luaL_unref(L, registryIndex, ref) }
  }

  /// Bytes Lua has allocated right now (any thread: the count is only read).
  var memoryInUse: Int {
    guard let L = main else { return 0 }
    return Int(lh_memory_in_use(lh_getstate(L)))
  }

  /// C's `SIZE_MAX`, which `lh_state.limit` holds for no limit: Swift imports `size_t` as
  /// `Int`, so `size_t.max` would be `Int.max`, a limit the shim would enforce (counting
  /// every call's results against it) rather than none.
  static let noLimit = Int(bitPattern: UInt.max)

  /// The memory limit in bytes, or nil for none.
  var memoryLimit: Int? {
    get {
      guard let L = main else { return nil }
      let limit = lh_getstate(L).pointee.limit
      return limit == Self.noLimit ? nil : limit
    }
    set {
      guard let L = main else { return }
      lh_getstate(L).pointee.limit = newValue.map { max($0, 0) } ?? Self.noLimit
    }
  }
}
