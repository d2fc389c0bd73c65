import Lua
import Testing

/// A memory error runs no message handler in Lua, so the sandbox's allocator records where
/// it refused: the error carries the position where the limit was hit, and a traceback.
@Suite(.timeLimit(.minutes(30))) struct MemoryErrorLocationTests {
  func sandbox(memory: Int) throws -> LuaState {
    var sandbox = LuaSandbox()
    sandbox.memoryLimit = memory
    sandbox.timeout = .seconds(120)  // a bound on work that ends at the limit
    return try LuaState(sandbox: sandbox)
  }

  @Test func aMemoryErrorSaysWhereTheLimitWasHit() throws {
    let lua = try sandbox(memory: 2 << 20)
    let error = try #require(throws: LuaError.self) {
      try lua.run(
        """
        local function grow(t)
          for i = 1, 1e8 do t[i] = ('x'):rep(64) .. i end
        end
        local function outer() grow({}) end
        outer()
        """, name: "=big")
    }
    #expect(error.kind == .memory)
    #expect(error.message == "not enough memory")
    #expect(error.location?.description == "big:2", "\(error.traceback)")
    let names = error.traceback.frames.compactMap(\.name)
    #expect(names.contains("grow") && names.contains("outer"), "\(error.traceback)")
    // The state goes on, and a later error has its own trace, not the refusal's.
    #expect(try lua.run("return 1 + 1") == [2])
    let later = try #require(throws: LuaError.self) {
      try lua.run("error('plain')", name: "=later")
    }
    #expect(later.location?.description == "later:1")
  }

  @Test func aRefusalThatPcallCaughtLeavesNoTraceBehind() throws {
    let lua = try sandbox(memory: 2 << 20)
    let results = try lua.run(
      """
      local ok, e = pcall(function() local t = {} for i = 1, 1e8 do t[i] = {} end end)
      collectgarbage()
      return ok, e
      """, name: "=caught")
    #expect(results == [false, "not enough memory"])
    let error = try #require(throws: LuaError.self) {
      try lua.run("local x = nil + 1", name: "=next")
    }
    #expect(error.kind == .runtime)
    #expect(error.location?.description == "next:1")
  }
}
