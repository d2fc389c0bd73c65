extension ReentrantLock {
  /// Takes the lock, or fails with a `usage` error (the cycle's description) when waiting
  /// for it would deadlock: how every Lua path takes a state's or a gate's lock.
  func lockOrRefuse() throws(LuaError) {
    do {
      try lockRefusingCycles()
    } catch {
      throw LuaError(usage: error.description)
    }
  }
}
