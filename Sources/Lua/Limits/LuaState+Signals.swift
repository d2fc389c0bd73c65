import CLuaShim

extension LuaState {
  /// Runs `body` with Ctrl-C handled the way the `lua` interpreter handles it while a
  /// script runs: the first SIGINT raises the error "interrupted!" in the running Lua code
  /// (a plain error: `pcall` can catch it), and puts back the default action, so a second
  /// SIGINT ends the process even inside a long C call. Afterwards SIGINT has its default
  /// action again. For one state at a time; ``interruptHandle`` is the sticky alternative.
  ///
  /// Like any interrupt, a SIGINT reaches only Lua code that runs as it comes: one that
  /// comes while a script waits for an async function stops nothing, and `body` sees it in
  /// ``unheardSIGINTs`` (a host cancels the wait on it).
  public func interruptingOnSIGINT<T>(_ body: () throws -> T) throws -> T {
    // Only arming touches the state: `body` takes its lock as it needs it.
    try core.withLock { lh_sigint_arm(try core.thread()) }
    defer { lh_sigint_disarm() }
    return try body()
  }

  /// How many SIGINTs ``interruptingOnSIGINT(_:)`` has taken in this process that no Lua
  /// code raised: they came while none ran, or as the call that would have raised one
  /// ended, and stopped nothing.
  public static var unheardSIGINTs: Int { Int(lh_sigints_unheard()) }
}
