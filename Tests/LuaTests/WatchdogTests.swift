import Foundation
import Lua
import Testing

/// The watchdog stops each state at its own deadline, however the deadlines of other
/// states interleave with it, and forgets a state when it closes.
// A hang guard, not a speed check: a deadline that does not fire fails the test here.
@Suite(.timeLimit(.minutes(30))) struct WatchdogTests {
  /// The error of `code`, run to its end in `lua`.
  func failure(_ lua: LuaState, _ code: String) throws -> LuaError {
    try #require(throws: LuaError.self) { try lua.run(code) }
  }

  @Test func anEarlierDeadlineArmedWhileTheWatchdogWaitsForALaterOneFires() throws {
    // `slow` runs under a deadline an hour away, so the watchdog sleeps until then; `quick`
    // then arms a deadline of 100 ms, which must wake it. `quick` has had a deadline before
    // (the watchdog lists a state at its first one, and listing wakes the thread anyway).
    let quick = try LuaState()
    quick.timeout = .seconds(60)
    #expect(try quick.run("return 1") == [1])
    let slow = try LuaState()
    slow.timeout = .seconds(3600)
    let started = DispatchSemaphore(value: 0)
    let ended = DispatchSemaphore(value: 0)
    try slow.register("started") { _ in
      started.signal()
      return []
    }
    let handle = slow.interruptHandle
    let slowError = LockedBox<LuaError?>(nil)
    let chunk = UncheckedSendable(try slow.load("started() while true do end"))
    Thread.detachNewThread {
      do { try chunk.value.call() } catch let error as LuaError { slowError.set(error) } catch {}
      ended.signal()
    }
    started.wait()
    quick.timeout = .milliseconds(100)
    #expect(try failure(quick, "while true do end").kind == .timeout)
    handle.interrupt()
    ended.wait()
    #expect(slowError.get()?.kind == .interrupted)
  }

  @Test func statesOnThreadsStopAtTheirOwnDeadlinesAndOnlyThere() throws {
    // Eight states on eight threads, each with its own deadline: each loop ends with
    // `.timeout`, and a quick call after it is not hit by a late stop.
    let done = DispatchSemaphore(value: 0)
    let outcomes = LockedBox<[String]>([])
    for index in 0..<8 {
      Thread.detachNewThread {
        var outcome = "no state"
        if let lua = try? LuaState() {
          lua.timeout = .milliseconds(20 * (index + 1))
          do {
            try lua.run("while true do end")
            outcome = "ran to its end"
          } catch let error as LuaError where error.kind == .timeout {
            lua.timeout = .seconds(60)
            outcome = (try? lua.run("return 'after'")) == ["after"] ? "timeout" : "late stop"
          } catch {
            outcome = "\(error)"
          }
        }
        outcomes.update { $0.append(outcome) }
        done.signal()
      }
    }
    for _ in 0..<8 { done.wait() }
    #expect(outcomes.get() == Array(repeating: "timeout", count: 8))
  }

  @Test func aDeadlineThatPassesBetweenCallsStopsNoLaterCall() throws {
    // Calls that end close to their deadline, many times: each either ends or times out,
    // and the quick call after it always runs (the deadline that fired belonged to the
    // call before).
    let lua = try LuaState()
    let busy = try lua.load("local n = 0 for i = 1, 2e4 do n = n + i end return n")
    let quick = try lua.load("return 'quick'")
    var timeouts = 0
    for _ in 0..<300 {
      lua.timeout = .microseconds(300)
      do { try busy.call() } catch let error as LuaError where error.kind == .timeout {
        timeouts += 1
      }
      lua.timeout = .seconds(60)
      #expect(try quick.call() == ["quick"])
    }
    _ = timeouts  // how many fired depends on the machine's speed; the verdict above does not
  }

  @Test func aClosedStateIsForgotten() throws {
    let lua = try LuaState()
    let handle = lua.interruptHandle
    #expect(!handle.isWatched)
    lua.timeout = .seconds(60)
    #expect(try lua.run("return 1") == [1])
    #expect(handle.isWatched)
    lua.close()
    #expect(!handle.isWatched)
  }
}

/// A value shared with a test's threads, under a lock.
final class LockedBox<Value>: @unchecked Sendable {
  // @unchecked: `value` is touched only holding `lock`.
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func get() -> Value { lock.withLock { value } }
  func set(_ newValue: Value) { lock.withLock { value = newValue } }
  func update(_ body: (inout Value) -> Void) { lock.withLock { body(&value) } }
}

/// A value handed to one other thread, which alone uses it from then on.
struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
