import CLuaShim

/// Charges memory that Swift keeps on a script's behalf to the script's state, so that it
/// counts against ``LuaState/memoryLimit`` as the script's own allocations do.
///
/// A host keeps strings a script handed it (a view's title, an alert's message); without a
/// charge they escape the limit. Charges are refused once the state's Lua memory and its
/// charges together would pass the limit; Lua's own allocations are refused the same way.
/// `Sendable`: charges and releases may come from any thread, and the account may outlive
/// the state (it then only counts).
public final class LuaMemoryAccount: @unchecked Sendable {
  // @unchecked: `state` is immutable, kept alive by lh_state_retain until deinit, and only
  // touched through lh_charge/lh_uncharge, which use atomics.
  private let state: UnsafeMutablePointer<lh_state>

  /// How far beyond the limit an overdraft may go: room for the record of a failure.
  public static let overdraftAllowance = 1 << 20

  init(state: UnsafeMutablePointer<lh_state>) {
    self.state = state
    lh_state_retain(state)
  }

  deinit { lh_state_release(state) }

  /// Charges `bytes`; false, charging nothing, if they do not fit under the limit (plus
  /// ``overdraftAllowance`` with `overdraft`).
  public func charge(_ bytes: Int, overdraft: Bool = false) -> Bool {
    guard bytes > 0 else { return true }
    return lh_charge(state, size_t(bytes), overdraft ? size_t(Self.overdraftAllowance) : 0) != 0
  }

  /// Gives back bytes charged before.
  public func release(_ bytes: Int) {
    if bytes > 0 { lh_uncharge(state, size_t(bytes)) }
  }
}

extension LuaState {
  /// The account that charges Swift-side memory to this state (one per state).
  /// - Throws: ``LuaError`` of kind `usage` once the state is closed.
  public func memoryAccount() throws -> LuaMemoryAccount {
    guard let main = core.main else { throw LuaError(usage: "the Lua state is closed") }
    if let account = core.memoryAccount { return account }
    let account = LuaMemoryAccount(state: lh_getstate(main))
    core.memoryAccount = account
    return account
  }
}
