import CLuaShim

extension LuaState {
  /// A wall-clock limit for each call from Swift into Lua (``LuaFunction/call(arguments:)``,
  /// ``run(_:name:)``…), or nil for none.
  ///
  /// Free for running code: no hook runs until the deadline passes. The call then fails
  /// with a `.timeout` ``LuaError``; `pcall` inside Lua cannot swallow it.
  public var timeout: Duration? {
    get { core.timeout.map { .nanoseconds(Int64(clamping: $0)) } }
    set {
      core.timeout = newValue.map(\.nanoseconds)
    }
  }

  /// The instant past which no call from Swift into Lua runs, or nil for none: a bound on
  /// a whole run (a script, its timers, its waits), where ``timeout`` bounds each call.
  ///
  /// Each call's deadline is the earlier of its own ``timeout`` and this instant, and a
  /// call (or a task-driven coroutine) that starts after it fails at once with `.timeout`.
  /// A coroutine that waits is cancelled at this instant too. Free for running code, as
  /// ``timeout`` is.
  public var endOfRun: ContinuousClock.Instant? {
    get {
      guard core.endOfRun != .max else { return nil }
      let now = Watchdog.now()
      let left = core.endOfRun > now ? core.endOfRun - now : 0
      return ContinuousClock.now + .nanoseconds(Int64(clamping: left))
    }
    set {
      guard let newValue else {
        core.endOfRun = .max
        return
      }
      // Watchdog time is CLOCK_MONOTONIC; the instant is carried over as the time left.
      let left = max(.zero, newValue - ContinuousClock.now).nanoseconds
      let (end, overflow) = Watchdog.now().addingReportingOverflow(left)
      core.endOfRun = overflow ? .max - 1 : end
    }
  }

  /// How long the sandbox's deferred finalizers may run when the state closes (stock
  /// `lua_close` runs every `__gc` to its end; the sandbox runs them under a deadline), or
  /// nil for the default: ``timeout``, else one second. Set from any thread. A host that
  /// bounds a whole run sets it to what is left of the run before it closes the state.
  public var finalizerTimeoutAtClose: Duration? {
    get {
      let nanoseconds = core.closeTimeout.load(ordering: .relaxed)
      return nanoseconds < 0 ? nil : .nanoseconds(nanoseconds)
    }
    set {
      core.closeTimeout.store(
        newValue.map { Int64(clamping: $0.nanoseconds) } ?? -1, ordering: .relaxed)
    }
  }

  /// Whether the last close stopped finalizers at their deadline, so that some never ran.
  public var finalizersWereStoppedAtClose: Bool { core.closeStopped.load(ordering: .relaxed) }

  /// How many Lua instructions each call from Swift may run (counted in steps of 1,000), or
  /// nil for no budget. A budget installs a count hook, which makes Lua code about twice
  /// as slow; prefer ``timeout`` where a wall-clock limit will do.
  public var instructionLimit: Int? {
    get {
      guard let stack = try? LuaStack(core) else { return nil }
      let limit = lh_getstate(stack.L).pointee.budget_limit
      return limit < 0 ? nil : Int(limit)
    }
    set {
      guard let stack = try? LuaStack(core) else { return }
      lh_setbudget(stack.L, newValue.map { Int64(max($0, 0)) } ?? -1)
    }
  }

  /// For a Swift function that Lua called and that loops over data the script controls (a
  /// search of a large tree, a list built from a long collection): charges `steps` to the
  /// ``instructionLimit``, as the sandbox's own long C functions do, and throws if the
  /// running call must stop (its ``timeout`` or ``endOfRun`` has passed, it was
  /// interrupted, or its budget is spent). The function then lets the error propagate, and
  /// Lua raises the stop itself in its place: sticky, as every stop is, so no `pcall` ends
  /// it (a Ctrl-C is the exception: raised once, as "interrupted!"). Call it every few
  /// hundred steps: it costs a load of the stop word, and no stop waits for more than one
  /// such batch.
  ///
  /// - Throws: a `timeout`, `interrupted` or `instructionLimit` ``LuaError`` when a stop
  ///   is pending; a `usage` error when the state is closed or used without its lock.
  public func checkForStop(charging steps: Int = 0) throws {
    let reason = lh_poll_pending(try core.thread(), Int64(clamping: steps))
    guard reason != LH_STOP_NONE else { return }
    throw LuaError(stopReason: reason) ?? LuaError(kind: .interrupted, message: "interrupted!")
  }

  /// A handle that interrupts this state's running code from any thread (the call that
  /// runs as it is used; with none running it does nothing).
  public var interruptHandle: LuaInterruptHandle { LuaInterruptHandle(target: core.stopTarget) }
}
