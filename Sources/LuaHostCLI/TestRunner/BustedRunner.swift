import Lua
import LuaHost

/// Runs `*_spec.lua` files with Debian's busted, as trusted test code in one environment:
/// the demo tree, its plugins panel, and a `luahost` module that drives them. The plugins a
/// spec loads run in their own sandboxes. busted writes its own output (`-o`).
package struct BustedRunner {
  /// How `luahost test` runs tests (plugins, limits, the name filter).
  package var options: TestRunner.Options
  /// busted's output handler: `plainTerminal`, `utfTerminal`, `TAP`, `junit`, `json`, or
  /// any handler busted can load.
  package var output: String
  /// Further arguments for busted, given after `--busted`.
  package var extraArguments: [String] = []

  /// Creates a runner.
  package init(options: TestRunner.Options, output: String) {
    self.options = options
    self.output = output
  }

  /// The busted handler for a `luahost test --output` value (`junit`, `tap`, `json`,
  /// `text`); other values are busted handler names, taken as given.
  package static func handler(for format: String, terminal: Bool) -> String {
    switch format {
    case "junit": return "junit"
    case "tap": return "TAP"
    case "json": return "json"
    case "text": return terminal ? "utfTerminal" : "plainTerminal"
    default: return format
    }
  }

  /// The arguments busted's runner parses.
  func arguments(files: [String]) -> [String] {
    var arguments = ["-o", output]
    if let filter = options.filter { arguments += ["--filter", filter] }
    return arguments + extraArguments + files
  }

  /// Runs the spec files; returns true when every spec passed. A driver that cannot run
  /// (busted missing, say) is reported on stderr and counts as a failure.
  package func run(files: [String]) -> Bool {
    var environment: TestEnvironment?
    defer { withExtendedLifetime(environment) {} }
    do {
      let made = try TestEnvironment(options: options, trusted: true)
      environment = made
      let (driver, helpers, argumentTable) = try made.tree.withState { _ in
        (
          try made.lua.load(BustedPrelude.source, name: "=luahost:busted"),
          try made.makeHostHelpers(), try made.lua.value(arguments(files: files))
        )
      }
      // As a coroutine: a spec may wait (luahost.settle, timers of the plugins).
      let (coroutine, progress) = try made.tree.start(
        driver, arguments: [.table(helpers), argumentTable])
      var results: [LuaValue]
      if case .finished(let values) = progress {
        results = values
      } else {
        let waiting = Unchecked(coroutine)
        results = try Blocking.wait { try await waiting.value.finish(isolation: nil) }
      }
      return results.first == .integer(0)
    } catch {
      StandardStreams.error("luahost test: busted could not run the specs: \(error)\n")
      return false
    }
  }
}
