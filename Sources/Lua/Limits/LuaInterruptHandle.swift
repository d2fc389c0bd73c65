import CLuaShim

/// Stops the code running in a ``LuaState`` from any thread (a watchdog, a signal handler
/// thread, another task). `Sendable`; using it after the state closed does nothing.
///
/// The stop is delivered as a ``LuaError`` (`.interrupted`, `.timeout`) at the next Lua
/// instruction, and it is sticky: `pcall` cannot swallow it; it is raised again until the
/// outermost call from Swift returns. A long call inside one C function (e.g. a huge
/// `string.rep`) is stopped when it returns to Lua.
public struct LuaInterruptHandle: Sendable {
  let target: StopTarget

  /// Interrupts the running code, as Ctrl-C would.
  public func interrupt() { target.request(Int32(LH_STOP_INTERRUPT)) }
}

/// The lh_state of a live state, or nil once it closed. The lock makes a request and the
/// state's closing mutually exclusive, so a request never touches freed memory.
final class StopTarget: Sendable {
  /// The lh_state's address (0 once closed), kept as an integer so the lock can hold it.
  private let address: LockedValue<UInt>

  init(_ state: UnsafeMutablePointer<lh_state>) { address = LockedValue(UInt(bitPattern: state)) }

  func request(_ reason: Int32) {
    address.withLock { address in
      if let state = UnsafeMutablePointer<lh_state>(bitPattern: address) {
        lh_request_stop(state, reason)
      }
    }
  }

  /// Called by the core just before it closes the state.
  func invalidate() { address.withLock { $0 = 0 } }
}
