import Lua
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `LuaState.checkForStop(charging:)`: a Swift function that Lua called and that loops over
/// data a script controls sees its call's stop, and Lua raises that stop in place of the
/// function's error, so `pcall` cannot catch it. Each loop here ends only by a stop; the
/// suite's time limit is the hang guard.
@Suite(.timeLimit(.minutes(30))) struct SwiftLoopStopTests {
  /// A state with `spin`, a Swift function that checks for a stop until one comes,
  /// charging `steps` each time, and counts its checks in `checks`.
  final class Spinner {
    let lua: LuaState
    var checks = 0

    /// `interrupting`: the loop interrupts its own call before its first check.
    init(charging steps: Int, interrupting: Bool = false) throws {
      lua = try LuaState(sandbox: LuaSandbox())
      let handle = lua.interruptHandle
      try lua.register("spin") { [unowned self] () throws -> Void in
        if interrupting { handle.interrupt() }
        while true {
          checks += 1
          try lua.checkForStop(charging: steps)
        }
      }
    }

    /// Runs `spin` inside a `pcall`: the stop must end the chunk, not the `pcall`.
    func run() throws -> LuaError {
      defer { lua.close() }
      let error = try #require(throws: LuaError.self) {
        try lua.run("pcall(spin) caught = true")
      }
      lua.timeout = nil
      lua.instructionLimit = nil
      #expect(try lua.run("return caught") == [.nil])
      return error
    }
  }

  @Test func aDeadlineStopsASwiftLoop() throws {
    let spinner = try Spinner(charging: 0)
    spinner.lua.timeout = .milliseconds(50)
    #expect(try spinner.run().kind == .timeout)
  }

  /// Counted, not timed: a budget of 100,000 instructions lasts 100 checks of 1,000.
  @Test func theBudgetCountsWhatASwiftLoopCharges() throws {
    let spinner = try Spinner(charging: 1_000)
    spinner.lua.instructionLimit = 100_000
    #expect(try spinner.run().kind == .instructionLimit)
    #expect((100...102).contains(spinner.checks), "\(spinner.checks) checks")
  }

  @Test func anInterruptStopsASwiftLoop() throws {
    let spinner = try Spinner(charging: 0, interrupting: true)
    #expect(try spinner.run().kind == .interrupted)
    #expect(spinner.checks == 1)
  }

  /// A Ctrl-C that a Swift loop sees is raised once, as "interrupted!", which `pcall`
  /// catches, as in `lua`: the loop's own error did not take the signal, so it was raised
  /// again after the `pcall`.
  @Test func aCtrlCThatASwiftLoopSeesIsRaisedOnce() throws {
    let lua = try LuaState(sandbox: LuaSandbox())
    defer { lua.close() }
    try lua.register("spin") { () throws -> Void in
      raise(SIGINT)  // this thread: the one that armed the handler and runs the state
      while true { try lua.checkForStop() }
    }
    let results = try lua.interruptingOnSIGINT {
      try lua.run("local ok, e = pcall(spin) return ok, e, 'after'")
    }
    #expect(results == [false, "interrupted!", "after"])
  }

  /// With no stop pending, a Swift function's own error reaches Lua as it was thrown.
  @Test func withNoStopTheFunctionsErrorStands() throws {
    let lua = try LuaState(sandbox: LuaSandbox())
    try lua.register("check") { () throws -> Void in
      try lua.checkForStop(charging: 10)
      throw LuaError(kind: .runtime, message: "its own")
    }
    #expect(try lua.run("local ok, e = pcall(check) return ok, e") == [false, "its own"])
    lua.close()
  }
}
