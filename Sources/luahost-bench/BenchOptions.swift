#if canImport(Glibc)
  import Glibc
#endif

/// What the command line asks of luahost-bench. A bad option prints what is wrong and the
/// usage to standard error and exits with status 2; `--help` prints the usage and exits 0.
struct BenchOptions {
  static let usage =
    "usage: luahost-bench [--json] [--quick] [--repetitions N] [--scale X] [--only 1,2,...]"

  var json = false
  var repetitions = 11
  var scale = 1.0
  /// The case numbers to run, or `nil` for all.
  var only: Set<Int>? = nil

  init(_ arguments: [String]) {
    var arguments = arguments[...]
    while let argument = arguments.popFirst() {
      switch argument {
      case "--json": json = true
      case "--quick": repetitions = 5
      case "--help", "-h":
        print(Self.usage)
        exit(0)
      case "--repetitions":
        let text = Self.value(after: argument, in: &arguments)
        guard let count = Int(text), (1...1000).contains(count) else {
          Self.fail("--repetitions takes a whole number from 1 to 1000, not '\(text)'")
        }
        repetitions = count
      case "--scale":
        let text = Self.value(after: argument, in: &arguments)
        guard let factor = Double(text), factor.isFinite, factor > 0, factor <= 100 else {
          Self.fail("--scale takes a number above 0, at most 100, not '\(text)'")
        }
        scale = factor
      case "--only":
        let text = Self.value(after: argument, in: &arguments)
        let cases = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
        guard cases.allSatisfy({ $0.map { (1...9).contains($0) } ?? false }) else {
          Self.fail("--only takes case numbers from 1 to 9, such as 1,5, not '\(text)'")
        }
        only = Set(cases.compactMap { $0 })
      default: Self.fail("unknown option '\(argument)'")
      }
    }
  }

  /// The value after `option`, or a usage error naming it.
  private static func value(after option: String, in arguments: inout ArraySlice<String>)
    -> String
  {
    guard let value = arguments.popFirst() else { fail("\(option) needs a value") }
    return value
  }

  /// Prints `message` and the usage to standard error; exits with status 2.
  static func fail(_ message: String) -> Never {
    let text = "luahost-bench: \(message)\n\(usage)\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
    exit(2)
  }
}
