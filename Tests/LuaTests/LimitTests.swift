import Lua
import Testing

#if canImport(Glibc)
  import Glibc
#endif

// A hang guard, not a speed check: a loop that a limit must stop runs for ever otherwise,
// so a stop that does not come fails the test here instead of hanging the run.
//
// A short deadline is for code that only a limit ends, never for code that must run to its
// end: a thread of a loaded machine may wait longer than 50 ms for a core, so `stop` cuts
// the deadline for the one call that a limit must stop, and the state's own (none) holds
// for the calls around it.
@Suite(.timeLimit(.minutes(30))) struct LimitTests {
  /// Runs `code` under a 50 ms deadline: it must fail, and the error is returned.
  func stop(_ lua: LuaState, _ code: String) throws -> LuaError {
    let saved = lua.timeout
    lua.timeout = .milliseconds(50)
    defer { lua.timeout = saved }
    return try failure(lua, code)
  }

  func failure(_ lua: LuaState, _ code: String) throws -> LuaError {
    do {
      try lua.run(code)
    } catch let error as LuaError {
      return error
    }
    Issue.record("expected \(code) to fail")
    throw LuaError(kind: .usage, message: "did not fail")
  }

  @Test func deadlineStopsAnEndlessLoop() throws {
    let lua = try LuaState()
    let error = try stop(lua, "while true do end")
    #expect(error.kind == .timeout)
    #expect(try lua.run("return 1 + 1") == [2])
  }

  @Test func pcallCannotSwallowATimeout() throws {
    let lua = try LuaState()
    let error = try stop(lua, "while true do pcall(function() while true do end end) end")
    #expect(error.kind == .timeout)
    let handled = try stop(
      lua,
      "local n = 0 while true do local ok = pcall(function() while true do end end) n = n + 1 end")
    #expect(handled.kind == .timeout)
  }

  @Test func deadlineReachesLoopsInsideCoroutines() throws {
    let lua = try LuaState()
    #expect(try stop(lua, "coroutine.wrap(function() while true do end end)()").kind == .timeout)
    #expect(
      try stop(
        lua,
        "coroutine.resume(coroutine.create(function() while true do end end)) while true do end"
      ).kind == .timeout)
    let nested = try stop(
      lua,
      "local co = coroutine.create(function() coroutine.yield() while true do end end) coroutine.resume(co) coroutine.resume(co)"
    )
    #expect(nested.kind == .timeout)
    #expect(try lua.run("return coroutine.wrap(function(a) coroutine.yield(a + 1) end)(1)") == [2])
  }

  @Test func coroutineLibraryStillBehaves() throws {
    let lua = try LuaState()
    let results = try lua.run(
      """
      local co = coroutine.create(function(a, b) local c = coroutine.yield(a + b) error('x' .. c) end)
      local r1 = {coroutine.resume(co, 1, 2)}
      local r2 = {coroutine.resume(co, 'y')}
      local r3 = {coroutine.resume(co)}
      local ok, err = pcall(coroutine.wrap(function() error('inside') end))
      return r1[1], r1[2], r2[1], r2[2]:match('xy$') ~= nil, r3[1], r3[2], coroutine.status(co), err:match('inside') ~= nil
      """)
    #expect(results == [true, 3, false, true, false, "cannot resume dead coroutine", "dead", true])
  }

  @Test func instructionBudget() throws {
    let lua = try LuaState()
    lua.instructionLimit = 100_000
    lua.timeout = .seconds(60)  // a hang guard: the budget must end the loop long before
    #expect(try failure(lua, "local i = 0 while true do i = i + 1 end").kind == .instructionLimit)
    #expect(try lua.run("local s = 0 for i = 1, 100 do s = s + i end return s") == [5050])
    lua.instructionLimit = nil
    #expect(
      try lua.run("local s = 0 for i = 1, 1e6 do s = s + i end return s") == [
        .number(500_000_500_000)
      ])
  }

  /// Every coroutine starts a fresh count of the budget's step, and one that ran less than a
  /// step was never charged: a loop of fresh coroutines ran a hundred times its budget (a
  /// hostile review), and nesting them multiplied that. A coroutine's step is charged as
  /// it gives control back. Counted in turns, not in time.
  @Test func freshCoroutinesCannotRunPastTheBudget() throws {
    let lua = try LuaState()
    lua.instructionLimit = 1_000_000
    lua.timeout = .seconds(60)  // a hang guard: the budget must end the loop long before
    let error = try #require(throws: LuaError.self) {
      try lua.run(
        """
        local function short() for i = 1, 300 do end end
        for i = 1, 1e6 do coroutine.wrap(short)() turns = i end
        """)
    }
    #expect(error.kind == .instructionLimit)
    // Each turn runs about 900 instructions in its coroutine.
    let turns = try Int64(luaValue: lua.globals().rawGet("turns"))
    #expect(turns < 2_000, "\(turns) turns under a budget of a million instructions")
    // A generator resumed 100,000 times runs about a million instructions, and is charged
    // about that: each step is charged once, when it first gives control back.
    lua.instructionLimit = 2_000_000
    #expect(
      try lua.run(
        """
        local gen = coroutine.wrap(function() for i = 1, 1e5 do coroutine.yield(i) end end)
        local s = 0 for i = 1, 1e5 do s = s + gen() end return s
        """) == [5_000_050_000])
  }

  @Test func interruptFromAnotherThread() async throws {
    let lua = try LuaState()
    let handle = lua.interruptHandle
    // From inside the call: an interrupt with no call running does nothing.
    try lua.register("started") { () -> Bool in
      onAThread(after: 50) { handle.interrupt() }
      return true
    }
    let error = try failure(lua, "started() while true do end")
    #expect(error.kind == .interrupted)
    #expect(try await lua.run("return 'alive'") == ["alive"])
  }

  @Test func handleOutlivesTheState() throws {
    var lua: LuaState? = try LuaState()
    let handle = try #require(lua).interruptHandle
    lua = nil  // the state is gone: an interrupt must do nothing (ASan would see a use)
    handle.interrupt()
    // A new state at the same address must not be hit by that interrupt either.
    let fresh = try LuaState()
    #expect(try fresh.run("local n = 0 for i = 1, 1e5 do n = n + 1 end return n") == [100_000])
  }

  @Test func aDeadlineLeavesQuickCallsAlone() throws {
    let lua = try LuaState()
    lua.timeout = .seconds(5)
    let add = try lua.load("local a, b = ... return a + b")
    for i in 0..<10_000 {
      #expect(try add.call(.integer(Int64(i)), 1) == [.integer(Int64(i) + 1)])
    }
  }
}

@Suite(.timeLimit(.minutes(30))) struct ScopedTimeoutTests {
  @Test func nestedCallsCanHaveTheirOwnDeadline() throws {
    let lua = try LuaState()
    // Generous: the outer call must outlast the inner one's 50 ms however slow the machine.
    lua.timeout = .seconds(60)
    try lua.register("probe") { arguments in
      let function = try LuaFunction(luaValue: arguments[0])
      do {
        // A loop gets 50 ms; a quick function a minute, so a descheduled thread cannot
        // turn its `finished` into a timeout.
        let loops = arguments.count > 1 && arguments[1] == true
        try function.call(arguments: [], timeout: loops ? .milliseconds(50) : .seconds(60))
        return ["finished"]
      } catch let error as LuaError {
        return [.string(LuaString("\(error.kind)"))]
      }
    }
    // The inner deadline stops the loop; the outer call goes on.
    #expect(
      try lua.run("local r = probe(function() while true do end end, true) return r, 1 + 1") == [
        "timeout", 2,
      ])
    #expect(try lua.run("return probe(function() return 1 end)") == ["finished"])
  }

  @Test func outerDeadlineStaysSticky() throws {
    let lua = try LuaState()
    lua.timeout = .milliseconds(50)
    try lua.register("probe") { arguments in
      _ = try? LuaFunction(luaValue: arguments[0]).call(arguments: [], timeout: .seconds(3600))
      return []
    }
    // The outer deadline passes inside the inner call, whose own is an hour away: the stop
    // must outlive the error that `probe` swallows, so that nothing after it runs (a loop
    // there would be stopped by the outer deadline anyway, sticky or not).
    let error = try #require(throws: LuaError.self) {
      try lua.run("probe(function() while true do end end) went_on = true")
    }
    #expect(error.kind == .timeout)
    #expect(try lua.globals().rawGet("went_on") == .nil)
  }

  @Test func anOuterDeadlineThatPassedBeforeANestedCallStaysSticky() throws {
    let lua = try LuaState()
    lua.timeout = .milliseconds(50)
    try lua.register("probe") { arguments in
      let function = try LuaFunction(luaValue: arguments[0])
      // Quick calls, each with an hour of its own, until one meets the outer deadline's
      // stop; then one more, made with that stop already pending. Neither may end it.
      while (try? function.call(arguments: [], timeout: .seconds(3600))) != nil {}
      _ = try? function.call(arguments: [], timeout: .seconds(3600))
      return []
    }
    let error = try #require(throws: LuaError.self) {
      try lua.run("probe(function() end) went_on = true")
    }
    #expect(error.kind == .timeout)
    #expect(try lua.globals().rawGet("went_on") == .nil)
  }

  @Test func anOuterBudgetSpentBeforeANestedCallStaysSpent() throws {
    let lua = try LuaState()
    lua.instructionLimit = 100_000
    lua.timeout = .seconds(60)  // a hang guard: the budget must end the loop long before
    try lua.register("probe") { arguments in
      let function = try LuaFunction(luaValue: arguments[0])
      // The nested call gets a budget of its own, but the caller's, already spent, must
      // still stop the caller.
      _ = try? function.call(arguments: [], timeout: .seconds(3600))
      return []
    }
    let error = try #require(throws: LuaError.self) {
      try lua.run(
        """
        local t = setmetatable({}, {__index = function() probe(function() end) return 1 end})
        for i = 1, 1e9 do local _ = t[i] end
        went_on = true
        """)
    }
    #expect(error.kind == .instructionLimit)
    #expect(try lua.globals().rawGet("went_on") == .nil)
  }
}
