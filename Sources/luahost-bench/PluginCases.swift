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
        ours: Measure.median(createOurs), baseline: Measure.median(createC), target: 1.5),
      Row(
        name: "7b. Lua heap per sandbox vs bare state with the same libs",
        ours: Measure.median(luaBytes), baseline: Measure.median(cBytes), unit: "B"),
      Row(
        name: "7c. malloc heap per sandbox, Swift objects included (growth / 1,000)",
        ours: Measure.median(rssBytes), unit: "B"),
      try tenThousandSandboxes(),
    ]
  }

  /// 7d: the whole process's resident memory with 10,000 default sandboxes alive, against
  /// the budget of 300 MB (as `ps` would show it: Lua's heap, Swift's objects, the
  /// allocator's slack and the binary).
  func tenThousandSandboxes() throws -> Row {
    var states: [LuaState] = []
    states.reserveCapacity(10_000)
    for _ in 0..<10_000 { states.append(try LuaState(sandbox: LuaSandbox())) }
    let resident = Self.residentBytes()
    withExtendedLifetime(states) {}
    let megabyte = 1_048_576.0
    return Row(
      name: "7d. resident memory with 10,000 sandboxes alive (whole process) vs 300 MB",
      ours: Double(resident) / megabyte, baseline: 300, target: 1, targetText: "≤ 300 MB",
      unit: "MB")
  }

  /// The process's resident set in bytes (`/proc/self/statm`), or 0 where it cannot be read.
  static func residentBytes() -> Int {
    guard let file = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 128)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return 0 }
    let line = String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let fields = line.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  /// Bytes in use in the malloc heap (glibc `mallinfo2`): Lua's allocations and Swift's.
  static func heapBytes() -> Int { Int(cb_heap_bytes()) }
}
