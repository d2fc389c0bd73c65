import Foundation
import Lua
import Testing

/// One owner per state: a confined state is used only by the thread that holds its lock,
/// and a close asked for from inside the state's own code waits until that code returned.
@Suite(.timeLimit(.minutes(30))) struct ConfinementTests {
  @Test func aConfinedStateIsUsableWhileItsLockIsHeld() throws {
    let lua = try LuaState()
    lua.confine()
    #expect(lua.isConfined)
    let results = try lua.withLock { try $0.run("return 1 + 1") }
    #expect(results == [2])
  }

  #if DEBUG
    /// The guard: a use without the lock stops the process at once (debug builds), so a race
    /// between two threads is a deterministic failure, never heap corruption.
    @Test func aConfinedStateUsedWithoutItsLockStopsTheProcess() async {
      await #expect(processExitsWith: .failure) {
        let lua = try LuaState()
        lua.confine()
        _ = try lua.run("return 1")
      }
    }

    @Test func aConfinedStateUsedFromAnotherThreadWhileHeldStopsTheProcess() async {
      await #expect(processExitsWith: .failure) {
        let lua = try LuaState()
        lua.confine()
        let function = try lua.withLock { try $0.load("return 1") }
        let box = UncheckedFunction(function: function)
        // The thread's trap ends the process; if there were none, the call would return
        // and so would this body (a success): an event, not a sleep, ends the wait.
        let returned = DispatchSemaphore(value: 0)
        let thread = Thread {
          _ = try? box.function.call()
          returned.signal()
        }
        thread.start()
        returned.wait()
      }
    }
  #endif

  @Test func theLockIsTheStatesOwnAndReentrant() throws {
    let lua = try LuaState()
    lua.confine()
    try lua.withLock { lua in
      #expect(lua.lock.holdCount == 1)
      try lua.withLock { _ in #expect(lua.lock.holdCount == 2) }
      let results = try lua.run("return 'ok'")
      #expect(results == ["ok"])
    }
    #expect(lua.lock.holdCount == 0)
  }

  @Test func aStateClosedByItsOwnSwiftFunctionClosesOnceTheCallReturns() throws {
    let lua = try LuaState()
    lua.confine()
    try lua.withLock { lua in
      try lua.register("close_me") { [unowned lua] _ in
        lua.close()
        #expect(!lua.isClosed, "closed while its code was on the stack")
        return ["still open"]
      }
      let results = try lua.run("local r = close_me() return r, #r")
      #expect(results == ["still open", 10])
      #expect(!lua.isClosed, "closed inside the outermost lock section")
    }
    #expect(lua.isClosed)
    let closed = try #require(throws: LuaError.self) { try lua.withLock { try $0.run("return 1") } }
    #expect(closed.kind == .usage)
    #expect(closed.message == "the Lua state is closed")
  }

  @Test func anUnconfinedStateClosedByItsOwnFunctionClosesAtItsNextUse() throws {
    let lua = try LuaState()
    try lua.register("close_me") { [unowned lua] _ in
      lua.close()
      return [1]
    }
    #expect(try lua.run("return close_me() + 1") == [2])
    let error = try #require(throws: LuaError.self) { try lua.run("return 1") }
    #expect(error.kind == .usage)
    #expect(error.message.contains("closed"))
    #expect(lua.isClosed)
  }

  @Test func closeWaitsForCodeRunningOnAnotherThread() throws {
    let lua = try LuaState()
    lua.confine()
    let started = DispatchSemaphore(value: 0)
    let finished = LockedFlag()
    try lua.withLock {
      try $0.register("started") { _ in
        started.signal()
        return []
      }
    }
    let box = UncheckedState(lua: lua)
    let thread = Thread {
      _ = try? box.lua.withLock { lua in
        _ = try lua.run("started() local n = 0 for i = 1, 2e6 do n = n + i end return n")
        finished.set()  // still holding the lock: close cannot have run yet
      }
    }
    thread.start()
    started.wait()
    lua.close()  // waits for the running chunk: it holds the lock
    #expect(finished.isSet)
    #expect(lua.isClosed)
  }
}

/// A function carried to another thread on purpose, to trip the guard.
private struct UncheckedFunction: @unchecked Sendable { let function: LuaFunction }
private struct UncheckedState: @unchecked Sendable { let lua: LuaState }

private final class LockedFlag: @unchecked Sendable {
  private let value = LockedValue(false)
  func set() { value.withLock { $0 = true } }
  var isSet: Bool { value.withLock { $0 } }
}
