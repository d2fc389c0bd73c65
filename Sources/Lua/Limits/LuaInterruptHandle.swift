import CLuaShim

/// Stops the code running in a ``LuaState`` from any thread (a watchdog, a signal handler
/// thread, another task). `Sendable`; using it after the state closed does nothing.
///
/// The stop is delivered as a ``LuaError`` (`.interrupted`) at the next Lua instruction,
/// and it is sticky: `pcall` cannot swallow it; it is raised again until the outermost call
/// from Swift returns. A long call inside one C function (e.g. a huge `string.rep`) is
/// stopped when it returns to Lua.
///
/// An interrupt belongs to the call that runs as it is made: with no call running (between
/// calls, or while a coroutine waits for an async function) it does nothing, and it never
/// reaches a later call, however late the thread that makes it runs. To stop a coroutine
/// that waits, cancel the task that finishes it.
public struct LuaInterruptHandle: Sendable {
  let target: StopTarget

  /// Interrupts the running code, as Ctrl-C would; does nothing if none runs.
  public func interrupt() { target.request(Int32(LH_STOP_INTERRUPT)) }

  /// For tests: how many outermost calls (and loads) of the state have begun plus ended,
  /// odd while one runs; nil once the state closed.
  package var entries: Int64? { target.withOpenState { lh_entries($0) } }

  /// For tests: interrupts as a thread would that read ``entries`` as `entries` and only
  /// now gets to make its request (a race no test can otherwise arrange).
  package func interrupt(asSeenAt entries: Int64) {
    target.withOpenState { _ = lh_request_stop_seen($0, Int32(LH_STOP_INTERRUPT), entries) }
  }

  /// Whether the watchdog lists the state (from its first deadline until it closes). For
  /// tests: a closed state must not stay listed.
  package var isWatched: Bool { target.guarded.withLock { $0.isListed } }
}

/// The lh_state of a live state, or nil once it closed, and the deadline the watchdog
/// enforces for it. The lock makes a request and the state's closing mutually exclusive,
/// so a request never touches freed memory; and it makes the watchdog's firing and a
/// disarm mutually exclusive, so a deadline that fired stops the call that armed it and no
/// later one.
final class StopTarget: Sendable {
  struct Guarded {
    /// The lh_state's address (0 once closed), kept as an integer so the lock can hold it.
    var address: UInt
    /// The armed deadline in `Watchdog.now()` nanoseconds, or 0 when none is armed.
    var deadline: UInt64 = 0
    /// Whether the watchdog lists this target (from its first deadline until it closes).
    var isListed = false
    /// The lh_state, or nil once closed.
    var state: UnsafeMutablePointer<lh_state>? { UnsafeMutablePointer(bitPattern: address) }
  }

  let guarded: LockedValue<Guarded>

  init(_ state: UnsafeMutablePointer<lh_state>) {
    guarded = LockedValue(Guarded(address: UInt(bitPattern: state)))
  }

  func request(_ reason: Int32) {
    guarded.withLock { Self.request(reason, in: &$0) }
  }

  /// Requests a stop of the state `guarded` names, if it is open; the caller holds the lock.
  static func request(_ reason: Int32, in guarded: inout Guarded) {
    if let state = guarded.state { _ = lh_request_stop(state, reason) }
  }

  /// Runs `body` on the lh_state holding the lock, so that the state cannot close
  /// meanwhile; nil once it closed.
  @discardableResult
  func withOpenState<T>(_ body: (UnsafeMutablePointer<lh_state>) -> T) -> T? {
    guarded.withLock { guarded in guarded.state.map(body) }
  }

  /// Called by the core just before it closes the state: requests reach nothing from now
  /// on, and the watchdog forgets the target.
  func invalidate() {
    let listed = guarded.withLock { guarded -> Bool in
      guarded.address = 0
      guarded.deadline = 0
      defer { guarded.isListed = false }
      return guarded.isListed
    }
    if listed { Watchdog.shared.unlist(self) }
  }
}
