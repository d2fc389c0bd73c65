import Foundation
import Lua
import Testing

/// An interrupt belongs to the call (or load) that runs as it is made. A fresh-clone run
/// saw a Ctrl-C typed at the REPL's prompt, read late by the watcher thread, stop every
/// later line: the interrupt was kept for whatever ran next, and a load that took it never
/// ended it.
@Suite(.timeLimit(.minutes(30))) struct InterruptScopeTests {
  static let loop = "local n = 0 for i = 1, 1e5 do n = n + 1 end return n"

  func failure(_ lua: LuaState, _ code: String) throws -> LuaError {
    try #require(throws: LuaError.self) { try lua.run(code) }
  }

  @Test func anInterruptWithNothingRunningReachesNoLaterLoadOrCall() throws {
    let lua = try LuaState(sandbox: LuaSandbox())
    lua.interruptHandle.interrupt()
    #expect(try lua.load("return 2 * 21").call() == [42])
    lua.interruptHandle.interrupt()
    #expect(try lua.run(Self.loop) == [100_000])
  }

  /// Runs a call that reads the state's entry count, as a thread that means to interrupt
  /// it would, and returns what it read.
  func entriesSeenByACall(_ lua: LuaState) throws -> Int64 {
    let handle = lua.interruptHandle
    let seen = LockedBox<Int64>(0)
    try lua.register("note") { () -> Bool in
      seen.set(handle.entries ?? 0)
      return true
    }
    #expect(try lua.run("return note()") == [true])
    #expect(seen.get() % 2 == 1, "a call was running")
    return seen.get()
  }

  @Test func anInterruptThatLandsAfterItsCallEndedIsDropped() throws {
    let lua = try LuaState()
    let handle = lua.interruptHandle
    // A thread that read the count during that call makes its request only now.
    handle.interrupt(asSeenAt: try entriesSeenByACall(lua))
    #expect(try lua.run(Self.loop) == [100_000])
    // The same request while its call still runs stops it.
    try lua.register("interruptNow") { () -> Bool in
      handle.interrupt(asSeenAt: handle.entries ?? 0)
      return true
    }
    #expect(try failure(lua, "interruptNow() while true do end").kind == .interrupted)
    #expect(try lua.run(Self.loop) == [100_000])
  }

  @Test func aStaleInterruptHidesNoDeadline() throws {
    let lua = try LuaState()
    lua.interruptHandle.interrupt(asSeenAt: try entriesSeenByACall(lua))
    // The first stop of a call wins; a stale one is no stop, so the deadline still fires.
    lua.timeout = .milliseconds(100)
    #expect(try failure(lua, "while true do end").kind == .timeout)
  }

  @Test func aLoadIsInterruptedAndItsStopEndsWithIt() throws {
    let lua = try LuaState()
    let handle = lua.interruptHandle
    let chunk = String(repeating: "x = 1\n", count: 1_000_000)
    // A thread interrupts as soon as it sees an entry running: the load. Whether it gets
    // there before the load ends depends on the machine, so try again until it does.
    var interrupted = false
    for _ in 0..<20 where !interrupted {
      let done = LockedBox(false)
      let ended = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        defer { ended.signal() }
        while !done.get() {
          // As seen: if this thread gets to it only after the load, it reaches nothing.
          if let entries = handle.entries, entries % 2 == 1 {
            handle.interrupt(asSeenAt: entries)
            return
          }
          sched_yield()
        }
      }
      do {
        _ = try lua.load(chunk)
      } catch let error as LuaError {
        #expect(error.kind == .interrupted)
        interrupted = true
      }
      done.set(true)
      // The thread ends before the next call: one that missed the load and saw this `done`
      // only late could take that call's entry for the load's, and stop it.
      ended.wait()
      // Whatever happened, the next load and call are not stopped.
      #expect(try lua.load("return 2 * 21").call() == [42])
    }
    #expect(interrupted)
  }
}
