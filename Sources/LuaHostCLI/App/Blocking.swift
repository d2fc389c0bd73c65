import Dispatch
import Lua

/// Waits on the calling thread for async work, as a command-line tool's main thread does:
/// the work runs in a task while this thread sleeps on a semaphore, waking every `tick` to
/// run `poll` (to draw a spinner, or notice Ctrl-C).
///
/// The task prefers an executor of its own (a `LuaExecutor`), not the cooperative pool:
/// the work runs Lua (a console line, a script's main chunk) that may loop until Ctrl-C,
/// and on a one-core machine the pool's one thread is what every timer needs to wake.
package enum Blocking {
  /// Runs `work` in a task and returns its result once it is done.
  /// - Parameters:
  ///   - poll: called on this thread every `tick` while waiting; returning `true` cancels
  ///     the task (which still runs to its end, and `wait` returns what it gives).
  package static func wait<T>(
    tick: Duration = .milliseconds(100), poll: () -> Bool = { false },
    _ work: @escaping () async throws -> T
  ) throws -> T {
    // The box is unchecked: `work` and its result move to the task and back once, while
    // this thread does nothing else with what they touch (it waits on the semaphore).
    let done = DispatchSemaphore(value: 0)
    let outcome = LockedValue<Unchecked<Result<T, any Error>>?>(nil)
    let body = Unchecked(work)
    let task = Task(executorPreference: LuaExecutor()) {
      let result: Result<T, any Error>
      do { result = .success(try await body.value()) } catch { result = .failure(error) }
      outcome.withLock { $0 = Unchecked(result) }
      done.signal()
    }
    let milliseconds = Int(
      tick.components.seconds * 1000 + tick.components.attoseconds / 1_000_000_000_000_000)
    while done.wait(timeout: .now() + .milliseconds(max(milliseconds, 1))) == .timedOut {
      if poll() { task.cancel() }
    }
    return try outcome.withLock { $0 }!.value.get()
  }
}

/// A value moved between this thread and a task while the other side waits.
package struct Unchecked<Value>: @unchecked Sendable {
  package let value: Value
  package init(_ value: Value) { self.value = value }
}
