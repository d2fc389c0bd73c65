import Lua
import Testing

/// Item 5: a memory error carries where the limit was hit and a traceback.
@Suite(.timeLimit(.minutes(10))) struct Item05MemoryErrorTests {
  @Test func aMemoryErrorHasALocationAndATraceback() throws {
    var sandbox = patientLimits
    sandbox.memoryLimit = 2 << 20
    let lua = try LuaState(sandbox: sandbox)
    let error = try #require(throws: LuaError.self) {
      try lua.run(
        """
        local function grow()
          local t = {} for i = 1, 1e8 do t[i] = ('x'):rep(32) .. i end
        end
        grow()
        """, name: "=notes")
    }
    #expect(error.kind == .memory)
    #expect(error.location?.description == "notes:2", "\(error.traceback)")
    #expect(error.traceback.frames.contains { $0.name == "grow" }, "\(error.traceback)")
  }
}
