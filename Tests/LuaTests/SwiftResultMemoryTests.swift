import Lua
import Testing

/// What a Swift function leaves on the stack for Lua counts against the memory limit as the
/// call returns. Swift pushes with the limit off (its allocations never fail), so before
/// this check a script at its limit could keep calling a host function that returns a new
/// table, and keep each one in slots it had allocated beforehand: a hostile review held
/// 92 MB under an 8 MB limit that way.
@Suite(.timeLimit(.minutes(5))) struct SwiftResultMemoryTests {
  static let limit = 1 << 20

  /// A state with `make(n)`, which returns a new table of `n` integers, through each kind
  /// of Swift function a script can call.
  func state() throws -> LuaState {
    let lua = try LuaState(memoryLimit: Self.limit)
    try lua.register("make") { (count: Int) in [Int](repeating: 7, count: count) }
    try lua.register(
      "makeArguments",
      arguments: { arguments in [Int](repeating: 7, count: Int(try arguments.integer(at: 1))) })
    return lua
  }

  /// Fills the state to its limit, keeping what it allocated, then calls `call` 200 times
  /// (with `pcall` straight, so the loop allocates nothing), keeping each result in a slot
  /// allocated before: returns how many calls succeeded, how many failed, and the last
  /// error message.
  func attack(_ lua: LuaState, _ call: String) throws -> [LuaValue] {
    try lua.run(
      """
      local keep = {} for i = 1, 200 do keep[i] = false end
      hog = {}
      pcall(function() for i = 1, 1e7 do hog[i] = i end end)
      local ok, failed, message = 0, 0, nil
      for i = 1, 200 do
        local fine, value = pcall(\(call), 2000)
        if fine then keep[i] = value; ok = ok + 1 else failed = failed + 1; message = value end
      end
      return ok, failed, message
      """)
  }

  @Test(arguments: ["make", "makeArguments"])
  func resultsThatDoNotFitAreAMemoryError(call: String) throws {
    let lua = try state()
    let outcome = try attack(lua, call)
    #expect(outcome.count == 3)
    #expect(try Int(luaValue: outcome[1]) > 0, "\(outcome)")
    #expect(outcome[2] == "not enough memory", "\(outcome)")
    // The last refused result is garbage, collected by the next allocation that needs room.
    lua.collectGarbage()
    #expect(lua.memoryInUse <= Self.limit, "\(lua.memoryInUse) bytes in use")
    // The state goes on, and the host sees a memory error where nothing catches it: a
    // result larger than the limit on its own.
    let error = try #require(throws: LuaError.self) { try lua.run("return make(200000)") }
    #expect(error.kind == .memory)
    #expect(error.message == "not enough memory")
    try lua.run("hog = nil")
    lua.collectGarbage()
    #expect(try lua.run("return #make(2000)") == [2000])
  }

  /// Garbage does not count: a result that fits once the collector has run is returned, as
  /// Lua collects before it refuses an allocation of its own.
  @Test func garbageDoesNotMakeAResultFail() throws {
    let lua = try state()
    let results = try lua.run(
      """
      collectgarbage('stop')
      while collectgarbage('count') * 1024 < \(Self.limit) * 0.95 do
        local t = {} for i = 1, 256 do t[i] = i end
      end
      local made = 0
      for i = 1, 40 do if #make(2000) == 2000 then made = made + 1 end end
      collectgarbage('restart')
      return made
      """)
    #expect(results == [40])
    #expect(lua.memoryInUse <= Self.limit)
  }
}
