import Lua
/// The `luahost` command line, parsed as the standard `lua` interpreter parses its own.
///
import LuaHost

/// `luahost [options] [script [args]]`. Options are handled in order, like `lua`: `-e` and
/// `-l` run before the script, in the order given.
package struct CommandLineOptions: Equatable, Sendable {
  /// One `-e CODE` or `-l NAME` action, kept in command-line order.
  package enum Action: Equatable, Sendable {
    /// `-e CODE`: run a string.
    case execute(String)
    /// `-l NAME` or `-l g=NAME`: `require` a module into a global.
    case require(global: String, module: String)
  }

  /// `-e`/`-l` actions, in order.
  package var actions: [Action] = []
  /// `-i`: enter interactive mode after running the script.
  package var interactive = false
  /// `-v`: print the version.
  package var showVersion = false
  /// `-E`: ignore `LUA_INIT` and the `LUA_PATH`/`LUA_CPATH` variables.
  package var ignoreEnvironment = false
  /// `-W`: turn warnings on.
  package var warnings = false
  /// `--help`.
  package var showHelp = false
  /// The script: a path, `-` for stdin, or nil.
  package var script: String?
  /// Arguments after the script.
  package var scriptArguments: [String] = []
  /// `--plugins DIR`: load the plugins in DIR into the app tree.
  package var pluginDirectory: String?
  /// `--error-log FILE`: where every routed error is logged as a JSON line.
  package var errorLogPath: String?
  /// `--trusted`: the full standard library, no filtering, no limits unless given.
  package var trusted = false
  /// `--allow io,os,package,debug`: libraries granted to the sandbox.
  package var capabilities: Set<LuaSandbox.Capability> = []
  /// `--memory SIZE`: bytes (suffixes K, M, G); nil: the default, see ``memoryLimitInEffect``.
  package var memoryLimit: Int?
  /// `--memory none`: no memory limit, not even the sandbox's default.
  package var lacksMemoryLimit = false
  /// `--timeout DURATION` (suffixes ms, s, m): the deadline of each call into Lua, and the
  /// bound of the whole run, timers and waiting work included.
  package var timeout: Duration?
  /// `--instructions N`: instruction budget per call.
  package var instructionLimit: Int?
  /// How many leading command-line words were options (for `arg`'s negative indices).
  package var optionCount = 0

  /// Creates empty options.
  package init() {}

  /// Parses the arguments after the program name.
  /// - Throws: ``UsageError`` for an unknown option or a missing option argument.
  package init(parsing arguments: [String]) throws {
    var index = 0
    func value(for option: String, attached: Substring) throws -> String {
      if !attached.isEmpty { return String(attached) }
      index += 1
      guard index < arguments.count, !arguments[index].hasPrefix("-") || option == "-e" else {
        throw UsageError("'\(option)' needs argument")  // `lua`'s words
      }
      return arguments[index]
    }
    while index < arguments.count {
      let word = arguments[index]
      if word == "--" {
        index += 1
        break
      }
      if word == "-" || !word.hasPrefix("-") { break }
      switch word {
      case "--help": showHelp = true
      case "--version", "-v": showVersion = true
      case "-i":
        interactive = true
        showVersion = true
      case "-E": ignoreEnvironment = true
      case "-W": warnings = true
      case "--trusted": trusted = true
      case "--plugins":
        index += 1
        guard index < arguments.count else { throw UsageError("'--plugins' needs an argument") }
        pluginDirectory = arguments[index]
      case "--error-log":
        index += 1
        guard index < arguments.count else { throw UsageError("'--error-log' needs an argument") }
        errorLogPath = arguments[index]
      case "--allow", "--memory", "--timeout", "--instructions":
        index += 1
        guard index < arguments.count else { throw UsageError("'\(word)' needs an argument") }
        try parseLimit(word, arguments[index])
      default:
        let option = String(word.prefix(2))
        let attached = word.dropFirst(2)
        switch option {
        case "-e": actions.append(.execute(try value(for: "-e", attached: attached)))
        case "-l":
          let spec = try value(for: "-l", attached: attached)
          if let equals = spec.firstIndex(of: "=") {
            actions.append(
              .require(
                global: String(spec[..<equals]), module: String(spec[spec.index(after: equals)...]))
            )
          } else {
            actions.append(.require(global: spec, module: spec))
          }
        default: throw UsageError("unrecognized option '\(word)'")
        }
      }
      index += 1
    }
    optionCount = index
    if index < arguments.count {
      script = arguments[index]
      scriptArguments = Array(arguments[(index + 1)...])
    }
  }
}

extension CommandLineOptions {
  /// The memory limit of a sandboxed script when `--memory` is not given.
  package static let defaultMemoryLimit = 256 << 20

  /// The memory limit that applies: the one given, else none when trusted (or after
  /// `--memory none`), else ``defaultMemoryLimit``.
  package var memoryLimitInEffect: Int? {
    if let memoryLimit { return memoryLimit }
    return trusted || lacksMemoryLimit ? nil : Self.defaultMemoryLimit
  }

  mutating func parseLimit(_ option: String, _ value: String) throws {
    switch option {
    case "--allow":
      for name in value.split(separator: ",") {
        guard let capability = LuaSandbox.Capability(rawValue: String(name)) else {
          throw UsageError("unknown capability '\(name)' (known: io, os, package, debug)")
        }
        capabilities.insert(capability)
      }
    case "--memory":
      if value == "none" {
        memoryLimit = nil
        lacksMemoryLimit = true
        return
      }
      guard let bytes = Self.parseSize(value) else {
        throw UsageError("bad size '\(value)' for --memory (e.g. 64M, or none)")
      }
      memoryLimit = bytes
      lacksMemoryLimit = false
    case "--timeout":
      guard let duration = Self.parseDuration(value) else {
        throw UsageError("bad duration '\(value)' for --timeout (e.g. 500ms, 2s)")
      }
      timeout = duration
    default:
      guard let count = Int(value), count > 0 else {
        throw UsageError("bad count '\(value)' for --instructions")
      }
      instructionLimit = count
    }
  }

  /// `1024`, `64K`, `64M`, `1G` (binary multiples).
  static func parseSize(_ text: String) -> Int? {
    let multipliers: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
    var digits = Substring(text.uppercased())
    var multiplier = 1
    if digits.hasSuffix("B") { digits = digits.dropLast() }
    if let last = digits.last, let m = multipliers[last] {
      multiplier = m
      digits = digits.dropLast()
    }
    guard let number = Int(digits), number > 0 else { return nil }
    let (bytes, overflow) = number.multipliedReportingOverflow(by: multiplier)
    return overflow ? nil : bytes
  }

  /// `250ms`, `2s`, `1.5s`, `1m`; a bare number is seconds. At most a year
  /// (``Duration/limit(seconds:)``): anything longer is refused, not trapped on.
  static func parseDuration(_ text: String) -> Duration? {
    let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60)]
    for (suffix, scale) in units where text.hasSuffix(suffix) {
      guard let number = Double(text.dropLast(suffix.count)) else { return nil }
      return Duration.limit(seconds: number * scale)
    }
    return Double(text).flatMap { Duration.limit(seconds: $0) }
  }
}

extension Duration {
  /// The longest limit a flag or a script may ask for: a year.
  static let longestLimit: Double = 365 * 24 * 3600

  /// `seconds` as a duration, if it is a usable limit: finite, above zero and at most
  /// ``longestLimit``. Numbers from scripts and flags are hostile: converting an
  /// unchecked `1e300` or `nan` to an integer traps, which no `pcall` catches.
  static func limit(seconds: Double) -> Duration? {
    guard seconds.isFinite, seconds > 0, seconds <= longestLimit else { return nil }
    return .nanoseconds(Int64((seconds * 1e9).rounded(.up)))
  }
}

/// A command-line mistake: reported with the usage text and exit status 2.
package struct UsageError: Error, Equatable, CustomStringConvertible {
  /// What was wrong.
  package var description: String
  /// Creates an error.
  package init(_ description: String) { self.description = description }
}
