import Foundation
import Lua
import Testing

/// A stop requested from another thread (the watchdog, an interrupt handle, a cancelled
/// task) reaches the running script through the thread that runs it. It hooked the
/// running Lua thread from the requesting thread, and Lua 5.4's `lua_sethook` walks that
/// thread's call frames to set their traps: frames the running thread was freeing and
/// reusing meanwhile. ThreadSanitizer, with a liblua built for it, reported the walk as a
/// race, and the suite crashed at random in liblua and in the sanitizer's own stacks.
@Suite(.timeLimit(.minutes(30))) struct CrossThreadStopTests {
  /// Recursion makes and drops call frames and the tables make garbage, so the collector
  /// frees frames while requests arrive.
  static let churn = """
    local function deep(n) if n == 0 then return 0 end return 1 + deep(n - 1) end
    ready()
    local total = 0
    for i = 1, 3000 do
      total = total + deep(100 + i % 100)
      local t = {} for j = 1, 20 do t[j] = {j} end
    end
    return total
    """
  static let churnTotal = (1...3000).reduce(0) { $0 + 100 + $1 % 100 }

  @Test func staleInterruptsFromAnotherThreadLeaveARunningScriptIntact() throws {
    var sandbox = LuaSandbox()
    sandbox.timeout = nil  // the churn takes as long as the machine needs: no deadline
    let lua = try LuaState(sandbox: sandbox)
    let handle = lua.interruptHandle
    #expect(try lua.run("return 1") == [1])  // the count is past 1: a request as seen at 1 is stale
    let started = LockedBox(false)
    let done = LockedBox(false)
    let requests = LockedBox(0)
    try lua.register("ready") { () -> Bool in
      started.set(true)
      // Wait for the first request, so that the loop runs while they arrive.
      while requests.get() == 0 { sched_yield() }
      return true
    }
    let finished = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      while !started.get() { sched_yield() }
      while !done.get() {
        handle.interrupt(asSeenAt: 1)
        requests.set(requests.get() + 1)
      }
      finished.signal()
    }
    let result = try lua.run(Self.churn)
    done.set(true)
    finished.wait()
    #expect(result == [.integer(Int64(Self.churnTotal))])
    #expect(requests.get() > 0)
    #expect(try lua.run("return 2 * 21") == [42])
  }

  /// A libdispatch worker (where Swift tasks run) blocks most signals; the stop still
  /// reaches a loop there.
  @Test func anInterruptFromAnotherThreadEndsALoopOnADispatchWorker() throws {
    let lua = try LuaState(sandbox: LuaSandbox())
    lua.timeout = .seconds(3600)
    let started = DispatchSemaphore(value: 0)
    let ended = DispatchSemaphore(value: 0)
    try lua.register("started") { () -> Bool in
      started.signal()
      return true
    }
    let handle = lua.interruptHandle
    let outcome = LockedBox<LuaError?>(nil)
    let chunk = UncheckedSendable(try lua.load("started() while true do end"))
    DispatchQueue.global().async {
      do { try chunk.value.call() } catch let error as LuaError { outcome.set(error) } catch {}
      ended.signal()
    }
    started.wait()
    handle.interrupt()
    ended.wait()
    #expect(outcome.get()?.kind == .interrupted)
  }
}
