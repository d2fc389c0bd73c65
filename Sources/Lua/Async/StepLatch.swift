import Synchronization

/// Whether a task-driven coroutine's step runs now, and whether its task was cancelled, in
/// one atomic word, so that a cancel and the start of a step are ordered: either the step
/// sees the cancel and does not run, or the cancel sees the step and stops it.
///
/// A cancel stops Lua code only while the coroutine's own step runs. A coroutine that waits
/// needs no stop: the operation it waits for sees the cancellation, and the coroutine is not
/// resumed. A stop requested then would be the state's, and would hit whatever code of the
/// state ran meanwhile: the script that removed a view, whose waiting action that cancelled.
final class StepLatch: Sendable {
  private let word = Atomic<UInt8>(0)
  private static let running: UInt8 = 1
  private static let cancelled: UInt8 = 2

  /// A step begins; false when the task was cancelled first, and the step must not run.
  func enter() -> Bool {
    let old = word.bitwiseOr(Self.running, ordering: .sequentiallyConsistent).oldValue
    guard old & Self.cancelled == 0 else {
      leave()
      return false
    }
    return true
  }

  /// The step has ended.
  func leave() {
    word.bitwiseAnd(~Self.running, ordering: .sequentiallyConsistent)
  }

  /// The task was cancelled; true when a step runs now, which the caller stops.
  func cancel() -> Bool {
    word.bitwiseOr(Self.cancelled, ordering: .sequentiallyConsistent).oldValue & Self.running
      != 0
  }
}
