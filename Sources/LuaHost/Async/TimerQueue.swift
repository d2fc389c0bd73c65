import Locks
import Lua

/// A tree's pending timers, run in the order they fall due (and, at the same time, in the
/// order they were scheduled), one at a time.
///
/// Each timer has a task of its own, which its view tracks (removing the view cancels it),
/// but that task does not sleep: it waits until its timer has ended (run or dropped), and
/// its cancellation drops the timer. The queue's sleepers wake for the timers: one sleeps
/// until the earliest due (or at most ``longestSleep``, then plans again), and asks the
/// queue to run every timer due by now, earliest first. A sleeper is never cancelled. A
/// cancelled `Task.sleep` keeps its runtime timer until the instant it was to wake, so a
/// timer task per timer that slept until its due kept about 100 bytes of the host's memory
/// for each cancelled timer until then: a plugin that cancelled long timers in a loop grew
/// the host past 700 MB (a hostile review).
///
/// While the state is busy (a main chunk or another timer that loops), every timer that
/// falls due meanwhile waits for the state's lock, then they run in due order.
///
/// The timers run in a task of the queue's own, which no view tracks: a timer task that its
/// view's removal cancels must not cancel the other views' timers it was about to run.
final class TimerQueue: Sendable {
  /// A timer: what runs it, and what ends its bookkeeping either way (run or dropped).
  struct Entry: Sendable {
    let due: ContinuousClock.Instant
    /// Runs the timer's function, if it is still wanted (not cancelled, its view alive).
    let fire: @Sendable () -> Void
    /// Ends the timer's work (its view's tracking, its charge): called once, after `fire`
    /// or instead of it.
    let finish: @Sendable () -> Void
  }

  /// The longest a sleeper sleeps before it plans again: a sleeper that an earlier timer
  /// made redundant ends within it.
  static let longestSleep: Duration = .seconds(1)
  /// How much earlier than the planned wake a new timer must fall due to start a sleeper
  /// of its own: at most a thousand sleepers start a second, whatever a script schedules.
  static let sleeperGranularity: Duration = .milliseconds(1)

  fileprivate struct Key: Comparable {
    let due: ContinuousClock.Instant
    let sequence: UInt64
    static func < (a: Key, b: Key) -> Bool {
      (a.due, a.sequence) < (b.due, b.sequence)
    }
  }

  fileprivate struct State {
    /// A binary min-heap of the keys; a key whose entry was removed stays until it comes
    /// to the top (or until the heap is rebuilt).
    var heap = MinHeap<Key>()
    var entries: [UInt64: Entry] = [:]
    var nextSequence: UInt64 = 0
    /// A task runs the due timers now.
    var isDraining = false
    /// When the latest sleeper started will wake; nil when none sleeps for a timer.
    var wake: ContinuousClock.Instant?
    /// Each timer's task, from the timer's start until the task stops waiting
    /// (``waitUntilReleased(_:)``): every timer has one, so no entry is left behind.
    var waits: [UInt64: Wait] = [:]
  }

  /// Where a timer's task stands.
  fileprivate enum Wait {
    /// Not waiting yet, and not released.
    case pending
    /// Waiting, to be resumed.
    case waiting(CheckedContinuation<Void, Never>)
    /// Released before it waited: it does not wait.
    case released
  }

  // `LockedValue`, not `Mutex`: ThreadSanitizer sees a pthread mutex (see LockedValue).
  private let state = LockedValue(State())
  /// Where the timers run: the state's executor, off the cooperative pool.
  private let executor: LuaExecutor

  /// A queue whose timers run on `executor`.
  init(executor: LuaExecutor) { self.executor = executor }

  /// Adds a timer; returns its number, for ``remove(_:)`` and ``waitUntilReleased(_:)``.
  func add(_ entry: Entry) -> UInt64 {
    let (sequence, wake) = state.withLock { state in
      let sequence = state.nextSequence
      state.nextSequence += 1
      state.entries[sequence] = entry
      state.waits[sequence] = .pending
      state.heap.push(Key(due: entry.due, sequence: sequence))
      return (sequence, state.planSleeper())
    }
    if let wake { startSleeper(until: wake) }
    return sequence
  }

  /// Waits until the timer `sequence` has ended (run, or dropped) or its task was
  /// cancelled (``release(_:)``). A timer's task waits here once; a cancelled task then
  /// drops its timer itself (``remove(_:)``), on its own thread: dropped from inside
  /// `Task.cancel()`, it ended its view's work while the view cancelled it, and the view's
  /// count of work was taken down twice (a hostile review: removing views then cancelled
  /// nothing in the whole process).
  func waitUntilReleased(_ sequence: UInt64) async {
    await withCheckedContinuation { continuation in
      let released = state.withLock { state -> Bool in
        guard case .pending = state.waits[sequence] else {
          state.waits[sequence] = nil  // released (or unknown): no wait
          return true
        }
        state.waits[sequence] = .waiting(continuation)
        return false
      }
      if released { continuation.resume() }
    }
  }

  /// Lets the task of timer `sequence` stop waiting (its timer ended, or the task was
  /// cancelled); once is enough, and more do nothing.
  func release(_ sequence: UInt64) {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      switch state.waits[sequence] {
      case .pending?:
        state.waits[sequence] = .released
        return nil
      case .waiting(let continuation)?:
        state.waits[sequence] = nil
        return continuation
      case .released?, nil:
        return nil
      }
    }
    waiter?.resume()
  }

  /// A timer's task was cancelled before the queue ran it: drops it and ends its work. A
  /// timer the queue has taken already (it runs now, or ran) is left to the queue.
  func remove(_ sequence: UInt64) {
    let removed = state.withLock { state -> Entry? in
      guard let entry = state.entries.removeValue(forKey: sequence) else { return nil }
      // Keys of removed timers wait in the heap until they come up: rebuild it when they
      // outnumber the live ones, so a script that schedules and cancels in a loop does not
      // grow it without bound.
      if state.heap.count > 2 * state.entries.count + 64 {
        state.heap.keep { state.entries[$0.sequence] != nil }
      }
      return entry
    }
    removed?.finish()
    release(sequence)
  }

  /// Sleeps until `wake`, then runs what is due. Never cancelled (see the type). On the
  /// pool, as each timer's task slept before (the drain it starts runs on the state's
  /// executor): with the executor as its preference, a reloaded plugin's timer did not run
  /// while its old version's timers ticked (HotReloadTests).
  private func startSleeper(until wake: ContinuousClock.Instant) {
    Task {
      try? await Task.sleep(until: wake, clock: .continuous)
      self.state.withLock { state in
        if state.wake == wake { state.wake = nil }
      }
      self.runDue()
    }
  }

  /// Runs every timer due by now, in order, in a task of the queue's own, unless one
  /// already does; then plans the next sleeper.
  private func runDue() {
    let starts = state.withLock { state -> Bool in
      if state.isDraining { return false }
      state.isDraining = true
      return true
    }
    guard starts else { return }
    Task(executorPreference: executor) { self.drain() }
  }

  private func drain() {
    while true {
      let (next, wake) = nextDue()
      guard let (sequence, entry) = next else {
        if let wake { startSleeper(until: wake) }
        return
      }
      entry.fire()
      entry.finish()
      release(sequence)
    }
  }

  /// Takes the earliest timer if it is due; else nil, and the draining ends (under the
  /// same lock, so a timer that a waking sleeper finds due is never left behind), with the
  /// wake of a sleeper to start for the timers left, if one is needed.
  private func nextDue() -> ((UInt64, Entry)?, ContinuousClock.Instant?) {
    state.withLock { state in
      let now = ContinuousClock.now
      while let top = state.heap.first, top.due <= now {
        state.heap.popFirst()
        if let entry = state.entries.removeValue(forKey: top.sequence) {
          return ((top.sequence, entry), nil)
        }
      }
      state.isDraining = false
      return (nil, state.planSleeper())
    }
  }
}

extension TimerQueue.State {
  /// The wake of a sleeper to start for the earliest live timer, if none that sleeps now
  /// wakes early enough (see ``TimerQueue/sleeperGranularity``); records it.
  fileprivate mutating func planSleeper() -> ContinuousClock.Instant? {
    while let top = heap.first, entries[top.sequence] == nil { heap.popFirst() }
    guard let top = heap.first else { return nil }
    let target = min(top.due, ContinuousClock.now + TimerQueue.longestSleep)
    if let wake, wake <= target + TimerQueue.sleeperGranularity { return nil }
    wake = target
    return target
  }
}
