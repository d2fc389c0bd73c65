import Foundation
import Lua
import Testing

/// `LuaState.endOfRun` bounds a whole run, where `timeout` bounds each call: every call's
/// deadline is cut at it, and nothing starts after it.
// A hang guard, not a speed check: an end that does not stop the loop fails the test here.
@Suite(.timeLimit(.minutes(30))) struct EndOfRunTests {
  @Test func nothingStartsAfterTheEndOfRun() throws {
    let lua = try LuaState()
    let chunk = try lua.load("ran = (ran or 0) + 1")
    lua.endOfRun = .now
    for attempt in 0..<3 {
      let error = try #require(throws: LuaError.self) {
        switch attempt {
        case 0: try chunk.call()
        case 1: try chunk.call(arguments: [], timeout: .seconds(60))
        default: try lua.run("ran = (ran or 0) + 1")
        }
      }
      #expect(error.kind == .timeout, "\(error)")
    }
    let coroutine = try #require(throws: LuaError.self) {
      try LuaCoroutine.start(chunk, arguments: [])
    }
    #expect(coroutine.kind == .timeout)
    lua.endOfRun = nil
    #expect(try lua.run("return ran") == [.nil])
    try chunk.call()
    #expect(try lua.run("return ran") == [1])
  }

  @Test func anAsyncCallDoesNotStartAfterTheEndOfRun() async throws {
    let lua = try LuaState()
    let chunk = try lua.load("ran = true")
    lua.endOfRun = .now
    let error = try await #require(throws: LuaError.self) { _ = try await chunk.call() }
    #expect(error.kind == .timeout)
    lua.endOfRun = nil
    #expect(try lua.globals().get("ran") == .nil)
  }

  @Test func theEndOfRunCutsEachCallsOwnDeadline() throws {
    let lua = try LuaState()
    lua.timeout = .seconds(3600)
    lua.endOfRun = .now + .milliseconds(100)
    let error = try #require(throws: LuaError.self) { try lua.run("while true do end") }
    #expect(error.kind == .timeout)
    #expect(lua.endOfRun != nil)
    lua.endOfRun = nil
    #expect(try lua.run("return 'after'") == ["after"])
  }

  @Test func aStateMadeFromASandboxEndsWithIt() throws {
    var sandbox = LuaSandbox()
    sandbox.timeout = nil
    sandbox.endOfRun = .now
    let lua = try LuaState(sandbox: sandbox)
    let error = try #require(throws: LuaError.self) { try lua.run("return 1") }
    #expect(error.kind == .timeout)
  }
}
