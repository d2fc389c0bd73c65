import Lua

/// Counts a tree's work in flight (actions that wait, timers), so a host can wait until it
/// is all done, as node waits for its timers before it exits.
public final class PendingWork: Sendable {
  private struct State {
    var count = 0
    var waiters: [CheckedContinuation<Void, Never>] = []
  }
  private let state = LockedValue(State())

  /// Creates an empty counter.
  public init() {}

  /// How much work is in flight.
  public var count: Int { state.withLock { $0.count } }

  func begin() { state.withLock { $0.count += 1 } }

  func end() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.count -= 1
      guard state.count == 0 else { return [] }
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Returns once no work is in flight (at once if none is).
  public func idle() async {
    await withCheckedContinuation { continuation in
      let now = state.withLock { state -> Bool in
        if state.count == 0 { return true }
        state.waiters.append(continuation)
        return false
      }
      if now { continuation.resume() }
    }
  }
}
