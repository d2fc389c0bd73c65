import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A mutual-exclusion lock that the thread holding it may take again, and may set aside
/// while it calls out to code that takes other locks.
///
/// LuaHost confines each Lua state (`LuaState.lock`), and the view tree (`View.treeLock`),
/// to one of these. Setting the lock aside (``withoutLock(_:)``) is what keeps lock order
/// acyclic: a thread never waits for a state's lock while it holds the tree's.
public final class ReentrantLock: @unchecked Sendable {
  // `@unchecked Sendable` is justified: `mutex` is safe to use from any thread; `depth` and
  // `pins` are read and written only by the thread that holds `mutex`; `owner` is atomic,
  // and a thread finds its own id there only if it stored it itself.
  /// The exclusion itself: no waiter starves while other threads keep taking it.
  private let mutex = HandoffMutex()
  private let owner = Atomic<UInt>(0)
  private var depth = 0
  /// How many spans of the holder's may not set the lock aside (``pin()``); read and
  /// written only by the thread that holds `mutex`.
  private var pins = 0

  /// What the lock guards, for ``LockCycleError`` ("plugin 'counter'"). Set it before the
  /// lock is shared; nil: "a lock".
  public var name: String?

  var displayName: String { name ?? "a lock" }
  /// The thread that holds the lock now, or 0.
  var ownerThread: UInt { owner.load(ordering: .relaxed) }

  /// Creates an unlocked lock.
  public init() {}

  /// Whether the calling thread holds the lock.
  public var isHeldByCurrentThread: Bool {
    owner.load(ordering: .relaxed) == Self.currentThread
  }

  /// How many times the calling thread holds the lock (0 when it does not): 1 inside the
  /// outermost ``withLock(_:)``.
  public var holdCount: Int { isHeldByCurrentThread ? depth : 0 }

  /// Takes the lock, waiting while another thread holds it.
  public func lock() {
    let thread = Self.currentThread
    if owner.load(ordering: .relaxed) == thread {
      depth += 1
      return
    }
    acquire(thread)
  }

  /// Takes the lock as ``lock()`` does, but throws instead of waiting when the wait would
  /// never end: the lock's holder waits (directly, or through other threads) for a lock
  /// this thread holds. Lua states' locks are taken this way, so calls that cross states
  /// in a cycle fail at once instead of hanging.
  /// - Throws: ``LockCycleError``, naming the locks of the cycle.
  public func lockRefusingCycles() throws(LockCycleError) {
    let thread = Self.currentThread
    if owner.load(ordering: .relaxed) == thread {
      depth += 1
      return
    }
    if !mutex.tryLock() {
      try WaitGraph.shared.willWait(thread, for: self, refusingCycles: true)
      mutex.lockSlowly()
      WaitGraph.shared.didWait(thread)
    }
    owner.store(thread, ordering: .relaxed)
    depth = 1
  }

  /// Takes the mutex for `thread`, recording a contended wait so that cycles through this
  /// lock can be seen by ``lockRefusingCycles()``.
  private func acquire(_ thread: UInt) {
    if !mutex.tryLock() {
      try? WaitGraph.shared.willWait(thread, for: self, refusingCycles: false)
      mutex.lockSlowly()
      WaitGraph.shared.didWait(thread)
    }
    owner.store(thread, ordering: .relaxed)
    depth = 1
  }

  /// Gives back one ``lock()``; the lock is free once every one is given back.
  public func unlock() {
    depth -= 1
    guard depth == 0 else { return }
    precondition(pins == 0, "\(displayName) released inside a pinned span (TreeLocked.withValue)")
    owner.store(0, ordering: .relaxed)
    mutex.unlock()
  }

  /// Runs `body` holding the lock.
  public func withLock<T>(_ body: () throws -> T) rethrows -> T {
    lock()
    defer { unlock() }
    return try body()
  }

  /// Marks the start of a span in which the holder may not set the lock aside: what it
  /// guards is borrowed there (`TreeLocked.withValue`'s `inout` value), and another thread
  /// taking the lock meanwhile would race with it. The calling thread holds the lock.
  package func pin() {
    precondition(isHeldByCurrentThread, "pin() without holding \(displayName)")
    pins += 1
  }

  /// Ends a span begun by ``pin()``.
  package func unpin() { pins -= 1 }

  /// Runs `body` with the lock released if the calling thread holds it (however many
  /// times), and takes it back as it was afterwards. Without the lock, `body` just runs.
  /// Inside a pinned span (``pin()``) it stops the process: what the lock guards is in
  /// use there, and releasing the lock would hand it to another thread.
  public func withoutLock<T>(_ body: () throws -> T) rethrows -> T {
    guard isHeldByCurrentThread else { return try body() }
    precondition(
      pins == 0,
      "\(displayName) set aside inside TreeLocked.withValue: code that runs Lua (a tap of a scripted view, send, a plugin call, withState) cannot run there; copy out what you need, and run it after"
    )
    let saved = depth
    depth = 0
    owner.store(0, ordering: .relaxed)
    mutex.unlock()
    defer {
      acquire(Self.currentThread)
      depth = saved
    }
    return try body()
  }

  /// An id of the calling thread, unique among running threads.
  package static var currentThread: UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }
}
