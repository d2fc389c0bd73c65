/// The `luahost` command line, parsed as the standard `lua` interpreter parses its own.
///
/// `luahost [options] [script [args]]`. Options are handled in order, like `lua`: `-e` and
/// `-l` run before the script, in the order given.
public struct CommandLineOptions: Equatable, Sendable {
  /// One `-e CODE` or `-l NAME` action, kept in command-line order.
  public enum Action: Equatable, Sendable {
    /// `-e CODE`: run a string.
    case execute(String)
    /// `-l NAME` or `-l g=NAME`: `require` a module into a global.
    case require(global: String, module: String)
  }

  /// `-e`/`-l` actions, in order.
  public var actions: [Action] = []
  /// `-i`: enter interactive mode after running the script.
  public var interactive = false
  /// `-v`: print the version.
  public var showVersion = false
  /// `-E`: ignore `LUA_INIT` and the `LUA_PATH`/`LUA_CPATH` variables.
  public var ignoreEnvironment = false
  /// `-W`: turn warnings on.
  public var warnings = false
  /// `--help`.
  public var showHelp = false
  /// The script: a path, `-` for stdin, or nil.
  public var script: String?
  /// Arguments after the script.
  public var scriptArguments: [String] = []
  /// How many leading command-line words were options (for `arg`'s negative indices).
  public var optionCount = 0

  /// Creates empty options.
  public init() {}

  /// Parses the arguments after the program name.
  /// - Throws: ``UsageError`` for an unknown option or a missing option argument.
  public init(parsing arguments: [String]) throws {
    var index = 0
    func value(for option: String, attached: Substring) throws -> String {
      if !attached.isEmpty { return String(attached) }
      index += 1
      guard index < arguments.count, !arguments[index].hasPrefix("-") || option == "-e" else {
        throw UsageError("'\(option)' needs an argument")
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
      case "--help", "-h": showHelp = true
      case "--version", "-v": showVersion = true
      case "-i": interactive = true; showVersion = true
      case "-E": ignoreEnvironment = true
      case "-W": warnings = true
      default:
        let option = String(word.prefix(2))
        let attached = word.dropFirst(2)
        switch option {
        case "-e": actions.append(.execute(try value(for: "-e", attached: attached)))
        case "-l":
          let spec = try value(for: "-l", attached: attached)
          if let equals = spec.firstIndex(of: "=") {
            actions.append(.require(global: String(spec[..<equals]), module: String(spec[spec.index(after: equals)...])))
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

/// A command-line mistake: reported with the usage text and exit status 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
  /// What was wrong.
  public var description: String
  /// Creates an error.
  public init(_ description: String) { self.description = description }
}
