import CBenchBaseline
import Lua

#if canImport(Glibc)
  import Glibc
#endif

/// Case 7: the cost of one plugin, with 1,000 sandboxes alive at once.
struct PluginCases {
  let count = 1000
  let repetitions: Int

  func run() throws -> [Row] {
    var createOurs: [Double] = []
    var createC: [Double] = []
    var luaBytes: [Double] = []
    var rssBytes: [Double] = []
    var cBytes: [Double] = []
    for _ in 0..<max(3, repetitions / 2) {
      let heapBefore = Self.heapBytes()
      var states: [LuaState] = []
      states.reserveCapacity(count)
      let start = Measure.now()
      for _ in 0..<count { states.append(try LuaState(sandbox: LuaSandbox())) }
      createOurs.append(Double(Measure.now() - start) / Double(count))
      rssBytes.append(Double(Self.heapBytes() - heapBefore) / Double(count))
      luaBytes.append(Double(states.reduce(0) { $0 + $1.memoryInUse }) / Double(count))
      for state in states { state.close() }
      states.removeAll()

      var raw: [OpaquePointer] = []
      raw.reserveCapacity(count)
      let cStart = Measure.now()
      for _ in 0..<count { raw.append(cb_newstate_safe()) }
      createC.append(Double(Measure.now() - cStart) / Double(count))
      cBytes.append(Double(raw.reduce(0) { $0 + cb_memory($1) }) / Double(count))
      for state in raw { cb_close(state) }
    }
    return [
      Row(
        name: "7a. create a sandbox (1,000 alive) vs luaL_newstate + same libs",
        ours: Measure.median(createOurs), baseline: Measure.median(createC)),
      Row(
        name: "7b. Lua heap per sandbox vs bare state with the same libs",
        ours: Measure.median(luaBytes), baseline: Measure.median(cBytes), unit: "B"),
      Row(
        name: "7c. malloc heap per sandbox, Swift objects included (growth / 1,000)",
        ours: Measure.median(rssBytes), unit: "B"),
    ]
  }

  /// Bytes in use in the malloc heap (glibc `mallinfo2`): Lua's allocations and Swift's.
  static func heapBytes() -> Int { Int(cb_heap_bytes()) }
}
