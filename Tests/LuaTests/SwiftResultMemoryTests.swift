import Lua
import Testing

/// What a Swift function leaves on the stack for Lua counts against the memory limit as the
/// call returns. Swift pushes with the limit off (its allocations never fail), so before
/// this check a script at its limit could keep calling a host function that returns a new
/// table, and keep each one in slots it had allocated beforehand: a hostile review held
/// 92 MB under an 8 MB limit that way.
@Suite(.timeLimit(.minutes(30))) struct SwiftResultMemoryTests {
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

  /// A Swift error's value is pushed with the limit off too. A function whose message
  /// quotes a string of the script's gave a fresh copy of it on each failure, and
  /// coroutines parked at a yield (their call frames allocated) caught one each without
  /// allocating: a hostile review held 400 MB under 8 MB so. An error that does not fit is
  /// the memory error instead.
  @Test func errorValuesThatDoNotFitAreAMemoryError() throws {
    let lua = try LuaState(memoryLimit: Self.limit)
    try lua.register("fail") { (text: String, copies: Int) -> Int in
      throw LuaError(
        kind: .runtime, message: "cannot use '\(String(repeating: text, count: copies))'")
    }
    let outcome = try lua.run(
      """
      local K = string.rep('k', 100000)
      local function deep(n) if n > 0 then return deep(n - 1) + 0 end return 0 end
      local function body() deep(8) coroutine.yield() fail(K, 1) end
      local cos, slots = {}, {}
      for i = 1, 40 do
        local co = coroutine.create(body) coroutine.resume(co) cos[i] = co slots[i] = false
      end
      local resume = coroutine.resume
      for i = 1, 40 do local _, e = resume(cos[i]) slots[i] = e end
      local copies, refused = 0, 0
      for i = 1, 40 do
        local e = slots[i]
        if #e > 100000 then copies = copies + 1 elseif e == 'not enough memory' then refused = refused + 1 end
      end
      collectgarbage()
      return copies, refused, collectgarbage('count') * 1024, select(2, pcall(fail, K, 20))
      """)
    #expect(outcome.count == 4)
    #expect(try Int(luaValue: outcome[0]) < 10 && Int(luaValue: outcome[1]) > 30, "\(outcome)")
    #expect(try Double(luaValue: outcome[2]) <= Double(Self.limit), "\(outcome)")
    // One error larger than the limit on its own.
    #expect(outcome[3] == "not enough memory", "\(outcome)")
  }

  /// An async function's results are pushed by the code that resumes its coroutine, with
  /// the limit off too: results that do not fit fail the call with a memory error where it
  /// was made, as a Swift error (a memory error raised by the host, as a refused charge is),
  /// and the script's `pcall` catches it.
  @Test func anAsyncFunctionsResultsCountToo() async throws {
    let script = try LimitedScript(limit: Self.limit)
    let outcome = try await script.run(
      """
      local keep = {} for i = 1, 400 do keep[i] = false end
      hog = {}
      while collectgarbage('count') * 1024 < \(Self.limit - (64 << 10)) do hog[#hog + 1] = ('h'):rep(1000) .. #hog end
      local ok, failed, message = 0, 0, nil
      for i = 1, 400 do
        local fine, value = pcall(fetch)
        if fine then keep[i] = value; ok = ok + 1 else failed = failed + 1; message = tostring(value) end
      end
      return ok, failed, message
      """)
    #expect(outcome.count == 3 && (Int(outcome[1]) ?? 0) > 0, "\(outcome)")
    #expect(outcome.last == "not enough memory", "\(outcome)")
    let inUse = await script.memoryInUse
    #expect(inUse <= Self.limit, "\(inUse) bytes in use")
    // One call whose results alone pass the limit fails where it was made.
    let single = try await script.run(
      "hog = nil collectgarbage() return select('#', pcall(fetchMany, 500)), tostring(select(2, pcall(fetchMany, 500)))"
    )
    #expect(single == ["2", "not enough memory"])
    #expect(try await script.run("return select('#', fetchMany(20))") == ["20"])
    // An error larger than the limit on its own, from an async function.
    let failed = try await script.run(
      "return tostring(select(2, pcall(failLater, string.rep('k', 60000), 20)))")
    #expect(failed == ["not enough memory"])
  }
}

/// A state with an async `fetch()` that returns a new 4,000-byte string (under the 4 KiB
/// that a push checks on its own), `fetchMany(n)`, n of them, and `failLater(text, n)`,
/// which fails quoting `text` n times, owned by an actor as a plugin's would be.
actor LimitedScript {
  let lua: LuaState
  init(limit: Int) throws {
    lua = try LuaState(memoryLimit: limit)
    try lua.register("fetch") { (_: [LuaValue]) async throws -> [LuaValue] in
      await Task.yield()
      return [.string(LuaString(String(repeating: "x", count: 4000)))]
    }
    try lua.register("fetchMany") { (arguments: [LuaValue]) async throws -> [LuaValue] in
      await Task.yield()
      let count = try Int(luaValue: arguments.first ?? .nil)
      return (0..<count).map { _ in .string(LuaString(String(repeating: "y", count: 4000))) }
    }
    try lua.register("failLater") { (arguments: [LuaValue]) async throws -> [LuaValue] in
      await Task.yield()
      let text = try String(luaValue: arguments.first ?? .nil)
      let copies = try Int(luaValue: arguments.count > 1 ? arguments[1] : .nil)
      throw LuaError(
        kind: .runtime, message: "cannot use '\(String(repeating: text, count: copies))'")
    }
  }
  func run(_ code: String) async throws -> [String] {
    try await lua.run(code, name: "=async").map(\.description)
  }
  /// Bytes in use once collected.
  var memoryInUse: Int {
    lua.collectGarbage()
    return lua.memoryInUse
  }
}
