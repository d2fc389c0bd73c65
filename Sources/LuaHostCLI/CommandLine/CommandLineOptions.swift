import Lua
import LuaHost

/// The `luahost` command line, parsed as the standard `lua` interpreter parses its own.
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
  /// Whether an `-e` was given: as under `lua`, it (or `-v`), not `-l`, keeps a run with
  /// no script from reading stdin or starting the REPL.
  package var executesCode: Bool {
    actions.contains { if case .execute = $0 { true } else { false } }
  }
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
  /// The script: a path, `-` for stdin (but see ``scriptIsStdin``), or nil.
  package var script: String?
  /// Whether the script is stdin: `-`, unless `--` came right before it (`lua -- -` opens
  /// a file named `-`, as lua.c does).
  package var scriptIsStdin: Bool { script == "-" && !scriptFollowsDoubleDash }
  /// `--` came right before the script.
  package var scriptFollowsDoubleDash = false
  /// Arguments after the script.
  package var scriptArguments: [String] = []
  /// `--plugins DIR`: load the plugins in DIR into the app tree.
  package var pluginDirectory: String?
  /// `--watch`: with `--plugins`, hot-reload a plugin when its files change; without a
  /// script (and outside the REPL), stay running until stdin closes.
  package var watch = false
  /// `--error-log FILE`: where every routed error is logged as a JSON line.
  package var errorLogPath: String?
  /// `--trusted`: the full standard library, no filtering, no limits unless given.
  package var trusted = false
  /// `--allow`, `--memory`, `--timeout` (also the bound of the whole run, timers and
  /// waiting work included) and `--instructions`.
  package var limits = RunLimits()
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
      // `lua`'s rule and words: the next word is no argument if it starts with `-`
      // (`-e -1` too).
      guard index < arguments.count, !ArgumentText.isOption(arguments[index]) else {
        throw UsageError("'\(option)' needs argument")
      }
      return arguments[index]
    }
    while index < arguments.count {
      let word = arguments[index]
      if word == "--" {
        index += 1
        scriptFollowsDoubleDash = true
        break
      }
      if word == "-" || !ArgumentText.isOption(word) { break }
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
        pluginDirectory = try Self.utf8Path(arguments[index], for: word)
      case "--watch": watch = true
      case "--error-log":
        index += 1
        guard index < arguments.count else { throw UsageError("'--error-log' needs an argument") }
        errorLogPath = try Self.utf8Path(arguments[index], for: word)
      case _ where RunLimits.isLimitFlag(word):
        index += 1
        guard index < arguments.count else { throw UsageError("'\(word)' needs an argument") }
        try limits.parse(word, arguments[index])
      default:
        // By bytes, as `lua` reads them: `-e` and the code attached to it, whatever its
        // first character (a combining mark joins the `e` as a character).
        let option = String(word.unicodeScalars.prefix(2))
        let attached = Substring(word.unicodeScalars.dropFirst(2))
        switch option {
        case "-e": actions.append(.execute(try value(for: "-e", attached: attached)))
        case "-l":
          let spec = try value(for: "-l", attached: attached)
          if let (global, module) = ArgumentText.split(atFirstEquals: spec) {
            actions.append(.require(global: global, module: module))
          } else {
            actions.append(.require(global: spec, module: spec))
          }
        default: throw UsageError("unrecognized option '\(word)'")
        }
      }
      index += 1
    }
    optionCount = index
    if watch && pluginDirectory == nil { throw UsageError("'--watch' needs '--plugins DIR'") }
    if index < arguments.count {
      script = arguments[index]
      scriptArguments = Array(arguments[(index + 1)...])
    }
  }
}

extension CommandLineOptions {
  /// `path`, if it is UTF-8: the folders and files these options name are opened by
  /// Foundation's `String` paths, which cannot hold other bytes (a repaired path would
  /// open another file).
  static func utf8Path(_ path: String, for option: String) throws -> String {
    guard !ArgumentText.hasEscapes(path) else {
      throw UsageError("'\(option)': the path is not valid UTF-8")
    }
    return path
  }

  /// The memory limit of the script's state: the one given, else none when trusted (or
  /// after `--memory none`), else ``RunLimits/scriptMemoryLimit``.
  package var memoryLimitInEffect: Int? {
    limits.memoryLimit(standard: trusted ? nil : RunLimits.scriptMemoryLimit)
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
