import Lua

#if canImport(Glibc)
  import Glibc
#endif

/// luahost-bench: LuaHost against the raw Lua C API, every case in one run.
///
/// Usage: luahost-bench [--json] [--quick] [--repetitions N] [--scale X] [--only 1,2,…]
/// (see ``BenchOptions``).
@main
struct Bench {
  static func main() async throws {
    let options = BenchOptions(Array(CommandLine.arguments.dropFirst()))
    let (json, repetitions, scale, only) =
      (options.json, options.repetitions, options.scale, options.only)
    func selected(_ number: Int) -> Bool { only?.contains(number) ?? true }
    let calls = CallCases(repetitions: repetitions, scale: scale)
    var rows: [Row] = []
    if selected(1) { rows += try calls.swiftToLua() }
    if selected(2) { rows += try calls.luaToSwift() }
    if selected(3) { rows += try calls.errorPath() }
    if selected(4) { rows += try MarshalCases(repetitions: repetitions, scale: scale).run() }
    if selected(5) { rows += try TreeCases(repetitions: repetitions, scale: scale).run() }
    if selected(6) { rows += try ThroughputCases(repetitions: repetitions).run() }
    if selected(7) { rows += try PluginCases(repetitions: repetitions).run() }
    if selected(8) { rows += try SandboxCases(repetitions: repetitions).run() }
    if selected(9) { rows += try await AsyncCases(repetitions: repetitions).run() }
    if json {
      for row in rows { print(Report.json(row)) }
    } else {
      print("Machine: \(Report.machine()); \(LuaState.copyright)")
      print("Medians of \(repetitions) interleaved repetitions; ratio = ours / baseline time.\n")
      print(Report.table(rows))
    }
    let broken = rows.filter { $0.isPromise && $0.met == false }
    for row in broken {
      let message = "bench: promise broken: \(row.name)\n"
      _ = message.withCString { write(2, $0, strlen($0)) }
    }
    if !broken.isEmpty { exit(1) }
  }
}
