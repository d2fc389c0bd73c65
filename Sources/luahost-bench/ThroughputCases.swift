import Lua

#if canImport(Glibc)
  import Glibc
#endif

/// Case 6: pure-Lua throughput under the sandbox with a deadline, with no limits, and in
/// the stock `lua5.4` interpreter.
struct ThroughputCases {
  let repetitions: Int

  /// Each workload is a chunk that returns the function to time.
  static let workloads: [(name: String, chunk: String)] = [
    (
      "fib(30)",
      """
      local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
      return function() return fib(30) end
      """
    ),
    (
      "numeric loop (10M float mul-adds)",
      """
      return function()
        local s = 0.0
        for i = 1, 10000000 do s = s + i * 0.5 end
        return s
      end
      """
    ),
  ]

  func run() throws -> [Row] {
    var rows: [Row] = []
    for (index, workload) in Self.workloads.enumerated() {
      var sandbox = LuaSandbox()
      sandbox.timeout = .seconds(60)
      let limited = try LuaState(sandbox: sandbox)
      let free = try LuaState()
      let limitedFunction = try limited.load(workload.chunk, name: "=bench").call(
        returning: LuaFunction.self)
      let freeFunction = try free.load(workload.chunk, name: "=bench").call(
        returning: LuaFunction.self)
      let medians = try Measure.interleaved(
        repetitions: repetitions,
        [
          { try Measure.perOp(1) { blackHole(try limitedFunction.call()) } },
          { try Measure.perOp(1) { blackHole(try freeFunction.call()) } },
        ])
      let letter = index == 0 ? "6a" : "6b"
      rows.append(
        Row(
          name: "\(letter). \(workload.name): sandbox + deadline vs no limits", ours: medians[0],
          baseline: medians[1], target: 1 / 0.95, targetText: "≥ 0.95× speed"))
      if let stock = Self.stockLua(workload.chunk, repetitions: repetitions) {
        rows.append(
          Row(
            name: "no limits vs stock `lua5.4` binary", ours: medians[1], baseline: stock,
            isDetail: true))
      } else {
        rows.append(Row(name: "stock `lua5.4` binary not found", ours: .nan, isDetail: true))
      }
    }
    return rows
  }

  /// The median time of the workload in the `lua5.4` binary, timed inside it with
  /// `os.clock` (CPU time of the one thread doing the work); nil without the binary.
  static func stockLua(_ chunk: String, repetitions: Int) -> Double? {
    let driver = """
      local f = load([==[\(chunk)]==], '=bench')()
      f()
      local t = {}
      for r = 1, \(repetitions) do
        local s = os.clock(); f(); t[#t + 1] = (os.clock() - s) * 1e9
      end
      table.sort(t)
      io.write(string.format('%.0f', t[(#t + 1) // 2]))
      """
    let path = "/tmp/luahost-bench-\(getpid()).lua"
    guard let file = fopen(path, "w") else { return nil }
    fputs(driver, file)
    fclose(file)
    defer { unlink(path) }
    guard let pipe = popen("lua5.4 \(path) 2>/dev/null", "r") else { return nil }
    var output = ""
    var buffer = [CChar](repeating: 0, count: 256)
    while fgets(&buffer, Int32(buffer.count), pipe) != nil {
      output += String(
        decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    guard pclose(pipe) == 0 else { return nil }
    return Double(output)
  }
}
