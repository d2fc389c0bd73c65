import Lua
import LuaHost

/// `luahost test [options] [PATH…]`: finds and runs `*_test.lua` files, and `*_spec.lua`
/// files with busted.
package enum TestCommand {
  /// The usage text.
  package static let usage = """
    usage: luahost test [options] [PATH...]
    Runs the *_test.lua files under each PATH (default: the current folder), then the
    *_spec.lua files with busted (trusted test code; the plugins they load stay sandboxed).
      --filter PATTERN   only tests whose name contains PATTERN (or matches it as a Lua pattern)
      --plugins DIR      load the plugins in DIR into each test's app tree
      --allow LIBS       grant io, os, package and/or debug to tests and plugins
      --timeout DURATION each test's deadline (default 5s)
      --instructions N   an instruction budget per call (for expect.error(f, "instructions"))
      --memory SIZE      each test's memory limit (default 64M)
      --tap              TAP version 13 output
      --json             JSON output
      --output FORMAT    text, tap, json or junit (junit: busted specs only)
      -o HANDLER         busted's output handler for the specs (TAP, junit, json, ...)
      --busted ARG       pass ARG on to busted (repeatable)
    Exit status: 0 all passed, 1 a test or spec failed or no file was found, 2 usage error
    (an unknown option, or a PATH that does not exist).
    """

  /// Runs the command; returns the exit status.
  package static func run(
    arguments: [String], environment: [String: String], stdoutIsTerminal: Bool
  )
    -> ExitStatus
  {
    var options = TestRunner.Options()
    var format = TestReport.Format.text(
      colors: stdoutIsTerminal && ScriptRunner.colorsAllowed(environment))
    var paths: [String] = []
    var specOutput: String?
    var bustedArguments: [String] = []
    var index = 0
    func value(_ flag: String) throws -> String {
      index += 1
      guard index < arguments.count else { throw UsageError("'\(flag)' needs an argument") }
      return arguments[index]
    }
    do {
      while index < arguments.count {
        let word = arguments[index]
        switch word {
        case "--tap": format = .tap
        case "--json": format = .json
        case "--output":
          let name = try value(word)
          switch name {
          case "tap": format = .tap
          case "json": format = .json
          case "text", "junit": break
          default: throw UsageError("--output: expected text, tap, json or junit, got '\(name)'")
          }
          specOutput = BustedRunner.handler(for: name, terminal: stdoutIsTerminal)
        case "-o": specOutput = try value(word)
        case "--busted": bustedArguments.append(try value(word))
        case "--filter": options.filter = try value(word)
        case "--plugins": options.pluginDirectory = try value(word)
        case "--help", "-h":
          StandardStreams.out(usage + "\n")
          return .success
        case _ where RunLimits.isLimitFlag(word):
          try options.limits.parse(word, try value(word))
        default:
          if ArgumentText.isOption(word) { throw UsageError("unrecognized option '\(word)'") }
          paths.append(word)
        }
        index += 1
      }
      if case .text = format {} else { options.printsToStandardError = true }
      if let directory = options.pluginDirectory, !PluginHost.isDirectory(directory) {
        throw UsageError("--plugins: \(directory) is not a directory")
      }
      for path in paths where !PluginHost.isDirectory(path) && !PluginHost.isFile(path) {
        throw UsageError("\(path): no such file or folder")
      }
    } catch {
      StandardStreams.error("luahost test: \(error)\n\(usage)\n")
      return .usage
    }
    let roots = paths.isEmpty ? ["."] : paths
    let files = TestRunner.discover(roots)
    let specs = TestRunner.discover(roots, suffix: "_spec.lua")
    if files.isEmpty && specs.isEmpty {
      StandardStreams.error("luahost test: no *_test.lua files found (nor *_spec.lua)\n")
      StandardStreams.out(TestReport.render([], format: format))
      return .failure
    }
    var passed = true
    if !files.isEmpty {
      let runner = TestRunner(options: options)
      var results: [TestResult] = []
      for file in files { results += runner.run(file: file) }
      StandardStreams.out(TestReport.render(results, format: format))
      passed = !results.contains { $0.status == .failed }
    }
    if !specs.isEmpty {
      let formatName: String
      switch format {
      case .tap: formatName = "tap"
      case .json: formatName = "json"
      case .text: formatName = "text"
      }
      var busted = BustedRunner(
        options: options,
        output: specOutput ?? BustedRunner.handler(for: formatName, terminal: stdoutIsTerminal))
      busted.extraArguments = bustedArguments
      passed = busted.run(files: specs) && passed
    }
    return passed ? .success : .failure
  }
}
