import Synchronization

/// Whether a task-driven coroutine's step runs now, and whether its task was cancelled, in
/// one atomic word, so that a cancel and the start of a step are ordered: either the step
/// sees the cancel and does not run, or the cancel sees the step and stops it.
///
/// A cancel stops Lua code only while the coroutine's own step runs, and only that step's
/// entry: the interrupt it requests names the entry (the state's count of outermost
/// entries), so one that comes as the step ends goes stale with it and reaches no later
/// call. A coroutine that waits needs no stop: the operation it waits for sees the
/// cancellation, and the coroutine is not resumed. A stop of the whole state would hit
/// whatever code of the state ran meanwhile: the script that removed a view, whose waiting
/// action that cancelled.
final class StepLatch: Sendable {
  private let word = Atomic<UInt8>(0)
  /// The entry the running step opens; written before `running` is set, read after it is
  /// seen (both sequentially consistent).
  private let entry = Atomic<Int64>(0)
  private static let running: UInt8 = 1
  private static let cancelled: UInt8 = 2

  /// A step that will run as outermost entry number `entry` begins; false when the task
  /// was cancelled first, and the step must not run.
  func enter(entry: Int64) -> Bool {
    self.entry.store(entry, ordering: .sequentiallyConsistent)
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

  /// The task was cancelled; the entry of the step that runs now, which the caller stops,
  /// or nil when none runs.
  func cancel() -> Int64? {
    let old = word.bitwiseOr(Self.cancelled, ordering: .sequentiallyConsistent).oldValue
    return old & Self.running != 0 ? entry.load(ordering: .sequentiallyConsistent) : nil
  }
}
