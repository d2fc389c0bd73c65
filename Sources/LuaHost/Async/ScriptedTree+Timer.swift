import Lua
import Synchronization
import ViewTree

extension ScriptedTree {
  /// The `timer` module: `timer.sleep(seconds)` suspends the calling coroutine without
  /// blocking anything else; `timer.after(seconds, fn)` runs `fn` later, as an action of
  /// the view (or plugin panel) whose code scheduled it, and returns a handle with
  /// `cancel()`. An error in `fn` goes to that view's nearest boundary; removing the view
  /// cancels the timer. Pending timers count in ``pendingWork``.
  func makeTimerModule() throws -> LuaValue {
    let module = try lua.makeTable()
    try module.set(
      "sleep",
      .function(
        lua.function { (arguments: [LuaValue]) async throws -> [LuaValue] in
          let delay = try Self.delay(arguments.first, function: "sleep")
          // A wait that is cancelled (a stop, its view removed) gives everything back at
          // once, and one that waits costs nothing meanwhile (see SleepQueue).
          try await SleepQueue.shared.sleep(until: .now + delay)
          return []
        }))
    try module.set(
      "after",
      function { tree, arguments in
        let delay = try Self.delay(arguments.first, function: "after")
        guard arguments.count > 1, case .function(let action) = arguments[1] else {
          throw LuaError(
            kind: .runtime,
            message:
              "bad argument #2 to 'after' (function expected, got \(arguments.count > 1 ? arguments[1].typeName : "no value"))"
          )
        }
        // A finalizer that runs as the state closes could schedule a timer that never
        // fires: refused, with an error the finalizer sees (found by a hostile review).
        guard !tree.lua.isClosed else {
          throw LuaError(kind: .runtime, message: "timer.after: the Lua state is closing")
        }
        let origin = tree.currentOrigin ?? tree.root
        // The handle (and the task it keeps) is paid for as long as the script keeps it;
        // the pending work, until the timer ends.
        let handle = try ScheduledTimer(tree: tree)
        let release = try tree.chargePendingWork()
        tree.schedule(action, after: delay, origin: origin, handle: handle, release: release)
        return [try tree.lua.userdata(handle)]
      })
    return .table(module)
  }

  /// Starts a timer task tracked by `origin`, with `handle` to cancel it. The timer runs
  /// through the tree's ``timers`` queue, so timers run in the order they fall due.
  func schedule(
    _ action: LuaFunction, after delay: Duration, origin: View, handle: ScheduledTimer,
    release: @escaping @Sendable () -> Void
  ) {
    let work = pendingWork
    let reference = WeakView(origin)
    let action = UncheckedFunction(function: action)
    let tree = WeakTree(tree: self)
    let timers = timers
    let due = ContinuousClock.now + delay
    work.begin()
    View.treeLock.withLock {
      origin.track { finished in
        let sequence = timers.add(
          TimerQueue.Entry(
            due: due,
            fire: {
              View.treeLock.withLock {
                // Cancelled (by `cancel()` or by removing the view) before it ran: dropped.
                guard handle.task?.isCancelled == false, let tree = tree.tree,
                  let view = reference.view
                else { return }
                do {
                  // Checked again holding the state's lock, which the timer may wait for
                  // while the script runs: a cancel or a removal of the view meanwhile
                  // drops it too (it ran after its view was removed).
                  try tree.callingLua {
                    try View.treeLock.withLock {
                      guard handle.task?.isCancelled == false, handle.fire() else { return }
                      // As the view's action, so that a removal of the view during it is
                      // noted.
                      try view.runAsAction { try tree.runAction(action.function, origin: view) }
                    }
                  }
                } catch {
                  _ = view.environment.errorHandler.handle(error)
                }
              }
            },
            finish: {
              finished()
              release()
              work.end()
            }))
        // The queue's sleepers run it (see TimerQueue); this task is what the view tracks,
        // and cancelling it drops the timer, from the task (see `waitUntilReleased`).
        let task = Task {
          await withTaskCancellationHandler {
            await timers.waitUntilReleased(sequence)
          } onCancel: {
            timers.release(sequence)
          }
          if Task.isCancelled { timers.remove(sequence) }
        }
        handle.task = task
        return task
      }
    }
  }

  /// A delay in seconds from Lua: a number, at least 0, finite.
  static func delay(_ value: LuaValue?, function: String) throws -> Duration {
    let seconds: Double
    switch value {
    case .integer(let n)?: seconds = Double(n)
    case .number(let x)?: seconds = x
    default:
      throw LuaError(
        kind: .runtime,
        message:
          "bad argument #1 to '\(function)' (number expected, got \(value?.typeName ?? "no value"))"
      )
    }
    guard seconds.isFinite, seconds >= 0, seconds <= 1e9 else {
      throw LuaError(
        kind: .runtime,
        message: "bad argument #1 to '\(function)' (seconds must be between 0 and 1e9)")
    }
    return .nanoseconds(Int64(seconds * 1e9))
  }

  /// Registers how timer handles look from Lua: `handle:cancel()`.
  func registerTimerType() throws {
    try lua.register(ScheduledTimer.self, name: "Timer") { type in
      type.method("cancel") { timer, _ in
        let wasPending = timer.cancel()
        timer.task?.cancel()
        return [.boolean(wasPending)]
      }
    }
  }
}

/// What `timer.after` returns. It is charged to the script while the script keeps it: a
/// script that keeps a million handles (or drops them faster than the collector runs)
/// pays for the handles and the tasks they hold.
final class ScheduledTimer: @unchecked Sendable {
  // `@unchecked Sendable`: `task` is written once, under `View.treeLock`, before Lua sees
  // the handle; a Task handle is itself Sendable; the charge gives its bytes back through
  // a thread-safe account.
  var task: Task<Void, Never>?
  /// 0 while pending, then `fired` or `cancelled`, whichever comes first: a timer that
  /// fired is no longer pending (`cancel` returns false and its callback runs on), and one
  /// cancelled does not fire, however close the two come.
  private let state = Atomic<UInt8>(0)
  private static let fired: UInt8 = 1
  private static let cancelled: UInt8 = 2
  /// What a handle and the task it keeps cost in Swift.
  static let memoryCost = 1024
  private let charge: Charged<Void>

  /// A handle charged to `tree`'s script for as long as it lives.
  /// - Throws: a `.memory` `LuaError` if the charge does not fit under the limit.
  init(tree: ScriptedTree) throws { charge = try Charged((), cost: Self.memoryCost, tree: tree) }

  /// The delay has passed: whether the timer fires (it was not cancelled first).
  func fire() -> Bool {
    state.compareExchange(expected: 0, desired: Self.fired, ordering: .sequentiallyConsistent)
      .exchanged
  }

  /// Cancels the timer: whether it was still pending (not fired, not cancelled before).
  func cancel() -> Bool {
    state.compareExchange(
      expected: 0, desired: Self.cancelled, ordering: .sequentiallyConsistent
    ).exchanged
  }
}

/// A function of the tree's state carried into its timer task; it is called only from a
/// step, under the state's lock.
struct UncheckedFunction: @unchecked Sendable {
  let function: LuaFunction
}
