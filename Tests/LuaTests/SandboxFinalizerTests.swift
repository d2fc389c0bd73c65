import Lua
import Testing

/// A script's finalizers run at a safe point, the next instruction after the collector
/// queued them (as stock Lua runs them during execution), and stay under the limits there.
// A hang guard, not a speed check: a stop that does not come fails the test here.
@Suite(.timeLimit(.minutes(30))) struct SandboxFinalizerTests {
  func sandbox(timeout: Duration?, instructions: Int? = nil) throws -> LuaState {
    var sandbox = LuaSandbox()
    sandbox.timeout = timeout
    sandbox.instructionLimit = instructions
    sandbox.output = { _ in }
    return try LuaState(sandbox: sandbox)
  }

  @Test func aLoopThatWaitsForAFinalizerEnds() throws {
    // Lua's gc.lua:63. Only allocation lets the collector run; without finalizers at safe
    // points the loop never ends, and the generous deadline fails the test. The script
    // starts with a full collection so that the three objects die in one cycle, whatever
    // phase making the sandbox left the collector in (created mid-cycle, a later object
    // survives the cycle that finalizes the earlier ones, in stock Lua as here).
    let lua = try sandbox(timeout: .seconds(120))
    let results = try lua.run(
      """
      collectgarbage()
      local finished = false
      local order = {}
      for i = 1, 3 do
        setmetatable({}, {__gc = function() order[#order + 1] = i; finished = i == 1 end})
      end
      local rounds = 0
      repeat local u = {}; rounds = rounds + 1 until finished
      return table.concat(order, ' '), rounds > 0
      """)
    #expect(results == ["3 2 1", true])  // stock's order: the newest first
  }

  @Test func aFinalizerThatLoopsIsStoppedByTheDeadline() throws {
    let lua = try sandbox(timeout: .milliseconds(200))
    // Nothing but the deadline ends either loop.
    let error = try #require(throws: LuaError.self) {
      try lua.run(
        """
        setmetatable({}, {__gc = function() while true do end end})
        repeat local u = {} until false
        """)
    }
    #expect(error.kind == .timeout)
    #expect(error.message == "execution timed out")
    lua.timeout = .seconds(60)  // 200 ms is for the stop alone: this must run to its end
    #expect(try lua.run("return 'still here'") == ["still here"])
  }

  @Test func aFinalizerThatLoopsIsStoppedByTheBudget() throws {
    let lua = try sandbox(timeout: nil, instructions: 1_000_000)
    let error = try #require(throws: LuaError.self) {
      try lua.run(
        """
        setmetatable({}, {__gc = function() while true do end end})
        repeat local u = {} until false
        """)
    }
    #expect(error.kind == .instructionLimit)
    #expect(try lua.run("return 1 + 1") == [2])
  }

  @Test func collectgarbageInsideAFinalizerFailsAsStocksDoes() throws {
    // Lua's gc.lua:680: the collector is not reentrant, so every option gives fail there.
    let lua = try sandbox(timeout: .seconds(120))
    let results = try lua.run(
      """
      local res, count = true, true
      setmetatable({}, {__gc = function() res = collectgarbage(); count = collectgarbage('count') end})
      collectgarbage()
      return res, count, collectgarbage('count') > 0
      """)
    #expect(results == [.nil, .nil, true])
  }

  @Test func aFinalizerErrorAtASafePointWarnsAndTheLoopGoesOn() throws {
    let warnings = LockedValue<[String]>([])
    var sandbox = LuaSandbox()
    sandbox.timeout = .seconds(120)
    sandbox.warningOutput = { line in warnings.withLock { $0.append(line.description) } }
    let lua = try LuaState(sandbox: sandbox)
    let results = try lua.run(
      """
      warn('@on')
      local finished = false
      setmetatable({}, {__gc = function() finished = true end})
      setmetatable({}, {__gc = function() error('boom') end})
      repeat local u = {} until finished
      return finished
      """)
    #expect(results == [true])
    #expect(
      warnings.withLock { $0 }.contains { $0.contains("error in __gc") && $0.contains("boom") })
  }
}
