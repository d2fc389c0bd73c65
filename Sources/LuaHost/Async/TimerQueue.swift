import Locks
import Lua

/// A tree's pending timers, run in the order they fall due (and, at the same time, in the
/// order they were scheduled), one at a time.
///
/// Each timer still sleeps in a task of its own, which its view tracks (removing the view
/// cancels it). But a task that wakes does not run its own timer: it asks the queue to run
/// every timer due by now, earliest first. Tasks wake in whatever order the pool runs them,
/// and while the state is busy (a main chunk or another timer that loops), every timer that
/// falls due meanwhile waits for the state's lock: left to the tasks, they would then run
/// in the order the lock lets them in, not the order they fell due.
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
    var heap: [Key] = []
    var entries: [UInt64: Entry] = [:]
    var nextSequence: UInt64 = 0
    /// A task runs the due timers now.
    var isDraining = false
  }

  // `LockedValue`, not `Mutex`: ThreadSanitizer sees a pthread mutex (see LockedValue).
  private let state = LockedValue(State())
  /// Where the timers run: the state's executor, off the cooperative pool.
  private let executor: LuaExecutor

  /// A queue whose timers run on `executor`.
  init(executor: LuaExecutor) { self.executor = executor }

  /// Adds a timer; returns its number, for ``remove(_:)``.
  func add(_ entry: Entry) -> UInt64 {
    state.withLock { state in
      let sequence = state.nextSequence
      state.nextSequence += 1
      state.entries[sequence] = entry
      state.push(Key(due: entry.due, sequence: sequence))
      return sequence
    }
  }

  /// A timer's task was cancelled before the queue ran it: drops it and ends its work. A
  /// timer the queue has taken already (it runs now, or ran) is left to the queue.
  func remove(_ sequence: UInt64) {
    let removed = state.withLock { state -> Entry? in
      guard let entry = state.entries.removeValue(forKey: sequence) else { return nil }
      // Keys of removed timers wait in the heap until they come up: rebuild it when they
      // outnumber the live ones, so a script that schedules and cancels in a loop does not
      // grow it without bound.
      if state.heap.count > 2 * state.entries.count + 64 { state.rebuild() }
      return entry
    }
    removed?.finish()
  }

  /// A timer's task woke at its due time: runs every timer due by now, in order, in a task
  /// of the queue's own, unless one already does.
  func runDue() {
    let starts = state.withLock { state -> Bool in
      if state.isDraining { return false }
      state.isDraining = true
      return true
    }
    guard starts else { return }
    Task(executorPreference: executor) { self.drain() }
  }

  private func drain() {
    while let entry = nextDue() {
      entry.fire()
      entry.finish()
    }
  }

  /// Takes the earliest timer if it is due; else nil, and the draining ends (under the
  /// same lock, so a timer that a waking task finds due is never left behind).
  private func nextDue() -> Entry? {
    state.withLock { state -> Entry? in
      let now = ContinuousClock.now
      while let top = state.heap.first, top.due <= now {
        state.popTop()
        if let entry = state.entries.removeValue(forKey: top.sequence) { return entry }
      }
      state.isDraining = false
      return nil
    }
  }
}

extension TimerQueue.State {
  fileprivate mutating func push(_ key: TimerQueue.Key) {
    heap.append(key)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child] < heap[parent] else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  fileprivate mutating func popTop() {
    let last = heap.removeLast()
    guard !heap.isEmpty else { return }
    heap[0] = last
    siftDown(from: 0)
  }

  fileprivate mutating func rebuild() {
    heap = entries.map { TimerQueue.Key(due: $0.value.due, sequence: $0.key) }
    for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(from: index) }
  }

  private mutating func siftDown(from start: Int) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      guard left < heap.count else { return }
      var smallest = left
      if left + 1 < heap.count, heap[left + 1] < heap[left] { smallest = left + 1 }
      guard heap[smallest] < heap[parent] else { return }
      heap.swapAt(smallest, parent)
      parent = smallest
    }
  }
}
