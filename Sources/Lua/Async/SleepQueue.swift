/// Sleeps for any number of tasks with one sleeping task at a time, so that a sleep that is
/// cancelled gives everything back at once and a sleep that waits costs nothing meanwhile.
///
/// A cancelled `Task.sleep` resumes at once, but the runtime keeps its timer (and what it
/// holds) until the instant it was to wake: each run's deadline timer, cancelled as the run
/// ended, kept about 0.7 KB until the run's `--timeout` (200,000 timer actions that waited
/// grew `luahost --timeout 100000s` to 163 MB). Sliced into sleeps of a second, it woke
/// every sleeper once a second instead (45,000 waiting `timer.sleep` calls took half a core
/// while idle; both found by hostile reviews). Here a sleep is an entry in a heap, and
/// cancelling it removes it; one task sleeps until the earliest entry (at most a second at
/// a time, never cancelled) and wakes those that are due.
package final class SleepQueue: Sendable {
  /// The queue of the process.
  package static let shared = SleepQueue()

  /// An empty queue (the process has ``shared``; tests make their own).
  package init() {}

  /// The longest the sleeping task sleeps before it plans again: one made redundant by an
  /// earlier sleep ends within it.
  static let longestSleep: Duration = .seconds(1)
  /// How much earlier than the planned wake a new sleep must end to start a sleeping task
  /// of its own: at most a thousand start a second, whatever a script asks for.
  static let granularity: Duration = .milliseconds(1)

  fileprivate enum Sleep {
    /// Made, not waiting yet.
    case pending(ContinuousClock.Instant)
    /// Waiting, to be resumed at its instant.
    case waiting(ContinuousClock.Instant, CheckedContinuation<Void, any Error>)
    /// Cancelled before it waited: it throws at once.
    case cancelled
  }

  fileprivate struct Key: Comparable {
    let wake: ContinuousClock.Instant
    let id: UInt64
    static func < (a: Key, b: Key) -> Bool { (a.wake, a.id) < (b.wake, b.id) }
  }

  fileprivate struct State {
    var sleeps: [UInt64: Sleep] = [:]
    /// A min-heap of the waiting sleeps; a key whose sleep was cancelled stays until it
    /// comes to the top (or the heap is rebuilt).
    var heap = MinHeap<Key>()
    var nextID: UInt64 = 0
    /// When the latest sleeping task started wakes; nil when none sleeps.
    var wake: ContinuousClock.Instant?
  }

  // `LockedValue`, not `Mutex`: ThreadSanitizer sees a pthread mutex (see LockedValue).
  private let state = LockedValue(State())

  /// Sleeps until `wake`; throws `CancellationError` when the task is cancelled, as
  /// `Task.sleep` does.
  package func sleep(until wake: ContinuousClock.Instant) async throws {
    // Due already (`timer.sleep(0)`): a turn for the others, no sleeping task.
    guard wake > .now else {
      try Task.checkCancellation()
      await Task.yield()
      return try Task.checkCancellation()
    }
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      state.sleeps[state.nextID] = .pending(wake)
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let (cancelled, start) = state.withLock { state -> (Bool, ContinuousClock.Instant?) in
          guard case .pending = state.sleeps[id] else {
            state.sleeps[id] = nil
            return (true, nil)
          }
          state.sleeps[id] = .waiting(wake, continuation)
          state.heap.push(Key(wake: wake, id: id))
          return (false, state.plan())
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        if let start { startSleeping(until: start) }
      }
    } onCancel: {
      cancel(id)
    }
  }

  /// Ends the sleep `id` with `CancellationError`.
  private func cancel(_ id: UInt64) {
    let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
      switch state.sleeps[id] {
      case .pending?:
        state.sleeps[id] = .cancelled
        return nil
      case .waiting(_, let continuation)?:
        state.sleeps[id] = nil
        if state.heap.count > 2 * state.sleeps.count + 64 {
          state.heap.keep { state.sleeps[$0.id] != nil }
        }
        return continuation
      case .cancelled?, nil:
        return nil
      }
    }
    continuation?.resume(throwing: CancellationError())
  }

  /// The sleeping task: never cancelled (see the type).
  private func startSleeping(until wake: ContinuousClock.Instant) {
    Task {
      try? await Task.sleep(until: wake, clock: .continuous)
      self.wakeDue(after: wake)
    }
  }

  /// Resumes every sleep due by now, and plans the next sleeping task.
  private func wakeDue(after wake: ContinuousClock.Instant) {
    let (due, start) = state.withLock {
      state -> ([CheckedContinuation<Void, any Error>], ContinuousClock.Instant?) in
      if state.wake == wake { state.wake = nil }
      let now = ContinuousClock.now
      var due: [CheckedContinuation<Void, any Error>] = []
      while let top = state.heap.first, top.wake <= now {
        state.heap.popFirst()
        if case .waiting(_, let continuation)? = state.sleeps.removeValue(forKey: top.id) {
          due.append(continuation)
        }
      }
      return (due, state.plan())
    }
    for continuation in due { continuation.resume() }
    if let start { startSleeping(until: start) }
  }
}

extension SleepQueue.State {
  /// The wake of a sleeping task to start for the earliest waiting sleep, if none that
  /// sleeps now wakes early enough; records it.
  fileprivate mutating func plan() -> ContinuousClock.Instant? {
    while let top = heap.first, sleeps[top.id] == nil { heap.popFirst() }
    guard let top = heap.first else { return nil }
    let target = min(top.wake, ContinuousClock.now + SleepQueue.longestSleep)
    if let wake, wake <= target + SleepQueue.granularity { return nil }
    wake = target
    return target
  }
}
