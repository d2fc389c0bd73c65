import Lua

#if canImport(Glibc)
  import Glibc
#endif

/// luahost-bench: LuaHost against the raw Lua C API, every case in one run.
///
/// Usage: luahost-bench [--json] [--quick] [--repetitions N] [--scale X] [--only 1,2,…]
@main
struct Bench {
  static let usage =
    "usage: luahost-bench [--json] [--quick] [--repetitions N] [--scale X] [--only 1,2,...]"

  /// Prints `message` and the usage to standard error and exits with status 2 (0 for
  /// `--help`, whose usage goes to standard output).
  static func usageError(_ message: String?) -> Never {
    guard let message else {
      print(usage)
      exit(0)
    }
    let text = "luahost-bench: \(message)\n\(usage)\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
    exit(2)
  }

  /// Runs the benchmarks; a case that fails prints why and exits with status 1.
  static func main() async {
    do {
      try await run()
    } catch {
      let text = "luahost-bench: \(error)\n"
      _ = text.withCString { write(2, $0, strlen($0)) }
      exit(1)
    }
  }

  static func run() async throws {
    var arguments = CommandLine.arguments.dropFirst()
    var json = false
    var repetitions = 11
    var scale = 1.0
    var only: Set<Int>? = nil
    /// The value after `option`, or a usage error naming it.
    func value(of option: String) -> String {
      guard let value = arguments.popFirst() else { usageError("\(option) needs a value") }
      return value
    }
    while let argument = arguments.popFirst() {
      switch argument {
      case "--json": json = true
      case "--quick": repetitions = 5
      case "--help", "-h": usageError(nil)
      case "--repetitions":
        let text = value(of: argument)
        guard let count = Int(text), (1...1000).contains(count) else {
          usageError("--repetitions takes a whole number from 1 to 1000, not '\(text)'")
        }
        repetitions = count
      case "--scale":
        let text = value(of: argument)
        guard let factor = Double(text), factor.isFinite, factor > 0, factor <= 100 else {
          usageError("--scale takes a number above 0, at most 100, not '\(text)'")
        }
        scale = factor
      case "--only":
        let text = value(of: argument)
        let cases = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
        guard !cases.isEmpty, cases.allSatisfy({ $0.map { (1...9).contains($0) } ?? false })
        else { usageError("--only takes case numbers from 1 to 9, such as 1,5, not '\(text)'") }
        only = Set(cases.compactMap { $0 })
      default: usageError("unknown option '\(argument)'")
      }
    }
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
