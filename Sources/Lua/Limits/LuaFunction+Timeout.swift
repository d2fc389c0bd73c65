import CLua
import CLuaShim

extension LuaFunction {
  /// Calls the function with a deadline of its own, also when called from inside another
  /// call (e.g. by a test runner checking that something times out). Called from inside
  /// another call, it also gets an instruction budget of its own (the state's), if the
  /// state has one, and running out of it ends here too.
  ///
  /// If this deadline passes first, the call fails with `.timeout` and the stop ends here,
  /// so the caller keeps running; if an outer deadline passes, the stop stays sticky as
  /// usual and reaches the outer caller too. A stop already pending for the caller when
  /// this call starts (its deadline or budget ran out) fails this call and stays too.
  /// - Throws: ``LuaError`` as ``call(arguments:)``, or `.timeout`.
  @discardableResult
  public func call(arguments: [LuaValue], timeout: Duration) throws -> [LuaValue] {
    let stack = try reference.pushed()
    let base = stack.top - 1
    do {
      try stack.reserve(arguments.count + 1)
      for argument in arguments { try stack.push(argument) }
    } catch {
      lua_settop(stack.L, base)
      throw error
    }
    let core = reference.core
    let watchdog = Watchdog.shared
    let target = core.stopTarget
    let now = Watchdog.now()
    let nested = lh_getstate(stack.L).pointee.depth > 0
    // The outer deadline first, then the stop: a deadline that fires between the two reads
    // is seen as pending, and one that fired before as pending with no deadline left.
    let outer = nested ? watchdog.deadline(of: target) : core.deadline(startingAt: now)
    let callersStop = nested ? lh_stop_pending(stack.L) : Int32(LH_STOP_NONE)
    let inner = now + timeout.nanoseconds
    watchdog.arm(target, deadline: min(outer ?? .max, inner), startingAt: now)
    let outerBudget = nested ? lh_budget_push(stack.L) : -1
    let status = lh_pcall(stack.L, Int32(arguments.count), LUA_MULTRET)
    // Disarmed before deciding whose stop ended the call, so that no deadline fires while
    // it decides; the outer one is armed again after (or raised, if it has passed).
    watchdog.disarm(target)
    let reason = status == LUA_OK ? Int32(LH_STOP_NONE) : lh_stop_reason(stack.L, -1)
    let outerPassed = outer.map { Watchdog.now() >= $0 } ?? false
    if !nested {
      lh_clearstop(stack.L)
    } else if callersStop == Int32(LH_STOP_NONE),
      reason == Int32(LH_STOP_BUDGET) || (reason == Int32(LH_STOP_TIMEOUT) && !outerPassed)
    {
      lh_endstop(stack.L)  // this call's own deadline or budget; the caller's go on
    }
    if nested, let outer {
      if outerPassed {
        lh_request_stop_sticky(lh_getstate(stack.L), Int32(LH_STOP_TIMEOUT))
      } else {
        watchdog.arm(target, deadline: outer)
      }
    }
    if nested { lh_budget_pop(stack.L, outerBudget) }
    guard status == LUA_OK else { throw stack.popError(status: status) }
    defer { lua_settop(stack.L, base) }
    return (0..<(stack.top - base)).map { stack.value(at: base + 1 + $0) }
  }
}

extension Duration {
  /// Whole nanoseconds, clamped at zero.
  package var nanoseconds: UInt64 {
    let (seconds, attoseconds) = components
    guard seconds >= 0 else { return 0 }
    let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    return overflow ? UInt64.max / 2 : whole + UInt64(max(attoseconds, 0) / 1_000_000_000)
  }
}
