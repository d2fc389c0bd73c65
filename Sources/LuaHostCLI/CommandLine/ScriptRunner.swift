import CSystem
import Lua
import LuaHost
import ViewTree

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `luahost`'s command line the way `lua` runs its own, and returns the exit status.
///
/// Exit status: 0 on success, 1 when a script fails (message and traceback on stderr),
/// 2 on a usage error, including a script file that cannot be read.
package struct ScriptRunner {
  /// The program name (`arg[-n]`).
  package var programName: String
  /// The words after the program name.
  package var arguments: [String]
  /// The environment, for `LUA_INIT`.
  package var environment: [String: String]
  /// Whether stdin is a terminal (decides between the REPL and running stdin).
  package var stdinIsTerminal: Bool
  /// Whether the parent closed stdin (the process then opened it on /dev/null): a script
  /// read from stdin is refused, as `lua` refuses it.
  package var stdinWasClosed = false

  /// Creates a runner.
  package init(
    programName: String, arguments: [String], environment: [String: String], stdinIsTerminal: Bool
  ) {
    self.programName = programName
    self.arguments = arguments
    self.environment = environment
    self.stdinIsTerminal = stdinIsTerminal
  }

  /// How long past the end of a run under `--timeout` the process may take to report its
  /// stops and close, before the backstop ends it (status 1).
  static let hardStopGrace = Duration.seconds(1)

  /// The version banner; it ends like `lua`'s, with Lua's copyright line.
  package static let version = "luahost 0.1.0, \(LuaState.copyright)"

  /// Runs everything the command line asks for.
  package func run() -> ExitStatus {
    switch arguments.first {
    case "test":
      return TestCommand.run(
        arguments: Array(arguments.dropFirst()), environment: environment,
        stdoutIsTerminal: isatty(1) != 0)
    case "definitions": return DefinitionsCommand.run(arguments: Array(arguments.dropFirst()))
    case "new": return NewPluginCommand.run(arguments: Array(arguments.dropFirst()))
    default: break
    }
    var options: CommandLineOptions
    do {
      options = try CommandLineOptions(parsing: arguments)
    } catch {
      report("\(error)\n\(Self.usage)")
      return .usage
    }
    // Through a link named `lua`, luahost is the trusted interpreter, and so are the
    // interpreters its scripts start by that name (Lua's test suite runs `arg[-n]`). Trust
    // is deliberately not passed on through the environment: every program started from a
    // trusted run would then run scripts unsandboxed.
    if standsInForLua { options.trusted = true }
    if options.showHelp {
      StandardStreams.out(Self.usage + "\n" + Self.describeProfile(options) + "\n")
      return .success
    }
    if options.showVersion { StandardStreams.out(Self.version + "\n") }
    do {
      return try execute(options)
    } catch {
      return fail(error)
    }
  }

  /// Builds the app tree (the REPL's demo window, or a bare window for a script), grafts
  /// the plugins into it, runs `LUA_INIT`, the `-e`/`-l` actions and the script, then the
  /// REPL if one was asked for.
  private func execute(_ options: CommandLineOptions) throws -> ExitStatus {
    let closing = ClosingReport()
    let errorLog = try openErrorLog(options)
    let status = try execute(options, closing: closing, errorLog: errorLog)
    // An error log that could not be written lost errors: said when it happened, and the
    // run fails.
    if let errorLog, errorLog.failure != nil {
      let count = errorLog.unlogged
      report("--error-log: \(count) \(count == 1 ? "error was" : "errors were") not logged")
      return .failure
    }
    // Under --timeout, finalizers stopped at exit mean the run did not end within it.
    return closing.sawStop && options.limits.timeout != nil ? .failure : status
  }

  /// The `--error-log` file, opened for appending; a write that fails is reported at once.
  private func openErrorLog(_ options: CommandLineOptions) throws -> ErrorLogWriter? {
    guard let path = options.errorLogPath else { return nil }
    let name = displayName
    do {
      return try ErrorLogWriter(path: path) { failure in
        StandardStreams.error(
          "\(name): --error-log: \(failure); later errors are not logged\n".visibleControls())
      }
    } catch let error as ErrorLogWriter.CannotOpen {
      throw UsageError("--error-log: \(error)")
    }
  }

  private func execute(
    _ options: CommandLineOptions, closing: ClosingReport, errorLog: ErrorLogWriter?
  ) throws -> ExitStatus {
    var options = options
    let started = ContinuousClock.now
    // The finalizers at exit (the sandbox runs every `__gc` left, as lua_close does) run
    // under what is left of --timeout, or else the script's under its own deadline and
    // the plugins' under one second for all of them, each taking its share in turn.
    let runEnd = options.limits.timeout.map { started + $0 }
    func closeBudget(_ standard: Duration?) -> Duration? {
      runEnd.map { max(.zero, $0 - ContinuousClock.now) } ?? standard
    }
    let startsRepl =
      options.interactive
      || (options.script == nil && stdinIsTerminal && !options.executesCode
        && !options.showVersion)
    // Outside the REPL, `--timeout` bounds the whole run: every call of the script's state
    // and of each plugin's (a timer's callback, a plugin's main chunk) ends by `runEnd`,
    // and none starts after it. The REPL gives each line its own deadline instead.
    if !startsRepl { options.limits.endOfRun = runEnd }
    // The backstop: work that no deadline reaches (a blocking read in a granted library, a
    // trusted `__gc`, which Lua runs with hooks off, reading the script from a pipe) is cut
    // off a grace after the end, in which the stops above report as usual.
    if !startsRepl, let timeout = options.limits.timeout {
      let message =
        "\(displayName): the run passed its --timeout of "
        + "\(timeout) and did not end: work no deadline reaches was cut off\n"
      _ = cs_arm_hard_stop((timeout + Self.hardStopGrace).nanoseconds, message)
    }
    let lua: LuaState
    let presenter = TranscriptAlertPresenter { StandardStreams.out($0) }
    var session: ReplSession?
    var tree: ScriptedTree?
    if startsRepl {
      let repl = try ReplSession(
        makeState: { try makeState(options) },
        makeWindow: {
          let window = DemoApp.makeWindow()
          window.environment.errorLog = errorLog?.log
          return window
        },
        profile: Self.describeProfile(options), colors: false)
      session = repl
      lua = repl.lua
    } else {
      lua = try makeState(options)
      let root = View.window(id: "root")
      root.environment.alertPresenter = presenter
      root.environment.errorLog = errorLog?.log
      tree = try ScriptedTree(lua: lua, root: root)
    }
    defer { withExtendedLifetime(errorLog) {} }
    defer {
      withExtendedLifetime(tree) {}
      lua.finalizerTimeoutAtClose = closeBudget(nil)
      lua.close()
      if lua.finalizersWereStoppedAtClose { closing.stopped("the script's", report: report) }
    }
    var pluginHost: PluginHost?
    if let directory = options.pluginDirectory {
      let root = session?.tree.root ?? tree!.root
      pluginHost = try loadPlugins(from: directory, into: root, options: options)
      if let session { session.pluginHost = pluginHost }
    }
    var watcher: PluginWatcher?
    if options.watch, let directory = options.pluginDirectory, let pluginHost {
      watcher = try Self.watch(directory, with: pluginHost)
    }
    defer {
      watcher?.stop()  // no reload while the plugins are unloaded
      // One budget for every plugin: a dozen hostile ones cannot hold the exit a dozen times.
      let end = runEnd ?? ContinuousClock.now + .seconds(1)
      // What still runs stops first (after a Ctrl-C or the script's error, a plugin may be
      // looping in a timer): unloading waits for the running code, up to its deadline.
      for plugin in pluginHost?.plugins ?? [] { plugin.interrupt() }
      // The interrupted work ends on its states' threads, where it raises its alerts:
      // waited for (within the budget), or the unload below could come first.
      while pluginHost?.hasPendingWork == true, ContinuousClock.now < end {
        usleep(1000)
      }
      let plugins = pluginHost?.plugins ?? []
      for (index, plugin) in plugins.enumerated() {
        let state = plugin.run { $0 }
        // A fair share of what is left: one plugin's looping finalizers cannot use up the
        // others' time (the first took all of it, and the rest ran none of theirs), and
        // what a plugin leaves unused goes to those after it.
        let left = max(.zero, end - ContinuousClock.now)
        state?.finalizerTimeoutAtClose = left / (plugins.count - index)
        try? pluginHost?.unload(plugin.name)
        if state?.finalizersWereStoppedAtClose == true {
          closing.stopped("plugin \(plugin.name)'s", report: report)
        }
      }
    }
    // The state's one owner is the tree: every use below holds its lock (withState), and
    // never while waiting, so timers and waiting work take turns with the script.
    guard let appTree = session?.tree ?? tree else { return .failure }
    try appTree.withState { lua in
      try makeArgTable(in: lua, options: options)
      if options.warnings { lua.setWarnings(true) }
    }
    // Ctrl-C is handled as `lua` handles it from the first action to the end of the wait
    // for timers and plugins below: one that Lua code of the script takes raises
    // `interrupted!` there; one that no Lua code took (the script waits, or a plugin's code
    // runs, or the main chunk was ending) cancels the wait. Counted from here, so that one
    // coming as the main chunk ends is not lost.
    let unheard = LuaState.unheardSIGINTs
    let ended = try lua.interruptingOnSIGINT { () throws -> ExitStatus? in
      try runActions(options, tree: appTree, plugins: pluginHost, startsRepl: startsRepl)
      guard session == nil else { return nil }
      // As node does: the script's timers and plugins' work in flight run before the exit.
      // `--timeout` bounds the whole run, this wait included: an endless timer chain ends.
      let plugins = pluginHost.map(Unchecked.init)
      let work = appTree.pendingWork
      let end = runEnd
      var cancelled = false
      // `--watch` with no script runs until stdin closes (the plugins' timers and reloads
      // go on meanwhile), then cancels what is still pending: a plugin's endless timer
      // chain must not keep it past its input. `--timeout` bounds this wait too.
      let endsWithInput = options.watch && options.script == nil
      if endsWithInput {
        Self.waitForEndOfInput(until: end) { LuaState.unheardSIGINTs == unheard }
      }
      // A Ctrl-C that no Lua code took interrupts the plugins' code, cancels what is
      // pending and ends the run as interrupted (it ended the process by the signal's
      // default action, with nothing said; a CLI review).
      var interrupted = false
      // Past the end (or, ending with the input, at once), each tick cancels the work in
      // flight (the tree's, and the plugins' panels' below it); a timer that was running
      // meanwhile may start one more, which the next tick cancels, so the wait ends.
      let cancelPastTheEnd = { () -> Bool in
        if !interrupted && LuaState.unheardSIGINTs != unheard {
          interrupted = true
          for plugin in plugins?.value.plugins ?? [] { plugin.interrupt() }
          View.treeLock.withLock { appTree.root.cancelWork() }
          return false
        }
        if let end, ContinuousClock.now >= end {
          // Said only when something was left: a run whose last call timed out has told.
          if work.count > 0 || plugins?.value.hasPendingWork == true { cancelled = true }
        } else if !endsWithInput {
          return false
        }
        // The plugins' running code is interrupted too: a plugin looping in a timer held
        // a `--watch` run whose input had ended until its own deadline (a hostile review).
        for plugin in plugins?.value.plugins ?? [] { plugin.interrupt() }
        View.treeLock.withLock { appTree.root.cancelWork() }
        return false
      }
      _ = cancelPastTheEnd()
      try Blocking.wait(poll: cancelPastTheEnd) {
        await work.idle()
        await plugins?.value.idle()
      }
      if interrupted {
        report("interrupted")
        return .failure
      }
      // Cut at its end, the run failed, also when what its end stopped (a timer that could
      // not start, a plugin's, whose alert its boundary showed) had a handler.
      if cancelled || end.map({ ContinuousClock.now >= $0 }) == true {
        report(
          "the run passed its --timeout of \(options.limits.timeout!)"
            + (cancelled ? " with timers or waiting work left; they were cancelled" : ""))
        return .failure
      }
      return nil
    }
    if let ended { return ended }
    if let session {
      let terminal = stdinIsTerminal && isatty(1) != 0
      if terminal { session.printer.colors = Self.colorsAllowed(environment) }
      session.isLuaCompatible = options.trusted && !stdinIsTerminal
      let loop = InteractiveLoop(session: session, terminal: terminal, environment: environment)
      withExtendedLifetime(loop) { loop.run() }
      return .success
    }
    return presenter.sawUnhandled ? .failure : .success
  }

  /// `LUA_INIT`, then the `-e` and `-l` actions in order, then the script (or stdin), as
  /// `lua` runs them.
  private func runActions(
    _ options: CommandLineOptions, tree: ScriptedTree, plugins: PluginHost?, startsRepl: Bool
  ) throws {
    if !options.ignoreEnvironment { try runInit(tree: tree, plugins: plugins) }
    for action in options.actions {
      switch action {
      case .execute(let code):
        // As a coroutine, like the script: `-e` code may wait too.
        let chunk = try tree.withState {
          try $0.load(bytes: ArgumentText.bytes(of: code), name: "=(command line)")
        }
        try run(chunk, arguments: [], tree: tree, plugins: plugins)
      case .require(let global, let module):
        try tree.withState { lua in
          let require = try LuaFunction(luaValue: lua.globals().get("require"))
          let module = LuaString(bytes: ArgumentText.bytes(of: module))
          let loaded = try require.call(.string(module)).first ?? .nil
          try lua.globals().set(.string(LuaString(bytes: ArgumentText.bytes(of: global))), loaded)
        }
      }
    }
    if let script = options.script {
      try runScript(
        script, isStdin: options.scriptIsStdin, tree: tree, plugins: plugins,
        trusted: options.trusted)
    } else if startsRepl {
      if !options.interactive && stdinIsTerminal { StandardStreams.out(Self.version + "\n") }
    } else if !options.executesCode && !options.showVersion && !options.watch {
      try runScript("-", isStdin: true, tree: tree, plugins: plugins, trusted: options.trusted)
    }
  }

  /// Reports `error` on stderr and says how the process ends: a usage error (a file that
  /// cannot be read is one) or a failure.
  private func fail(_ error: any Error) -> ExitStatus {
    switch error {
    case let error as UsageError:
      report("\(error)")
      return .usage
    case let error as LuaError where error.kind == .file:
      report(error.message)
      return .usage
    case let error as LuaError:
      report(error.consoleDescription)
      return .failure
    default:
      report("\(error)")
      return .failure
    }
  }

  /// Loads the plugins of `directory` under `root/plugins` (made if missing). A plugin that
  /// cannot be loaded is reported on stderr; the others still load.
  func loadPlugins(from directory: String, into root: View, options: CommandLineOptions) throws
    -> PluginHost
  {
    guard PluginHost.isDirectory(directory) else {
      throw UsageError("--plugins: \(directory) is not a directory")
    }
    let container = root.find("plugins") ?? View.stack(id: "plugins")
    if container.parent == nil && container !== root { try root.add(container) }
    // Each line is flushed, as stock `print` flushes: a plugin's timers print while
    // `--watch` runs on, into a pipe too.
    let host = options.limits.pluginHost(
      container: container,
      output: { line in
        StandardStreams.out(line + "\n")
        StandardStreams.flush()
      })
    for case .failure(let error) in host.loadAll(in: directory) {
      if case .capabilitiesNotAllowed(_, let capabilities) = error {
        report("\(error) (--allow \(capabilities.joined(separator: ",")))")
      } else {
        report("\(error)")
      }
    }
    return host
  }

  /// The state the options ask for: sandboxed unless `--trusted`.
  func makeState(_ options: CommandLineOptions) throws -> LuaState {
    let lua: LuaState
    if options.trusted {
      lua = try LuaState(libraries: .all, ignoresEnvironment: options.ignoreEnvironment)
      options.limits.apply(to: lua)
    } else {
      lua = try LuaState(
        sandbox: options.limits.scriptSandbox(
          moduleDirectory: Self.moduleDirectory(for: options.script)))
    }
    lua.useGenerationalCollector()  // as lua.c does
    return lua
  }

  /// The folder a sandboxed `require` reads from: the script's own folder, or the current
  /// folder for `-e`, stdin and the REPL (as stock Lua's `./?.lua` finds modules there).
  static func moduleDirectory(for script: String?) -> String {
    guard let script, script != "-", let slash = script.lastIndex(of: "/") else { return "." }
    return slash == script.startIndex ? "/" : String(script[..<slash])
  }

  /// The profile in effect, as `--help` and `.sandbox` show it.
  package static func describeProfile(_ options: CommandLineOptions) -> String {
    func limit(_ value: String?) -> String { value ?? "none" }
    let plugins = options.limits.sandbox(granting: false)
    let libraries =
      options.trusted
      ? "all standard libraries (trusted)"
      : "sandbox: base (filtered), string, table, math, utf8, coroutine, os (clock/time/date/difftime)"
        + (options.limits.capabilities.isEmpty
          ? ""
          : " + " + options.limits.capabilities.map(\.rawValue).sorted().joined(separator: ", "))
    return """
      profile: \(libraries)
      memory: \(limit(options.memoryLimitInEffect.map { "\($0) bytes" }))  timeout: \(limit(options.limits.timeout.map { "\($0)" }))  instructions: \(limit(options.limits.instructionLimit.map(String.init)))
      plugins: each call under a \(plugins.timeout.map { "\($0)" } ?? "no") deadline, memory: \(limit(plugins.memoryLimit.map { "\($0) bytes" }))
      """
  }

  /// Whether colours are allowed: not when `NO_COLOR` is set (non-empty) or `TERM=dumb`.
  static func colorsAllowed(_ environment: [String: String]) -> Bool {
    (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
  }

  /// Whether the program was started under the name `lua` (or `lua5.4`, say), e.g. through
  /// a link: it then stands in for the interpreter, trusted and named as invoked.
  var standsInForLua: Bool {
    let name = programName.split(separator: "/").last ?? ""
    return name == "lua" || name.hasPrefix("lua5")
  }

  /// The name messages start with: as invoked when standing in for `lua`.
  private var displayName: String {
    standsInForLua ? ArgumentText.display(programName) : "luahost"
  }

  private func report(_ text: String) {
    StandardStreams.error(
      "\(displayName): \(ArgumentText.display(text).visibleControls())\n")
  }

  private func makeArgTable(in lua: LuaState, options: CommandLineOptions) throws {
    let words = [programName] + arguments
    let scriptIndex = options.script == nil ? 0 : options.optionCount + 1
    let table = try lua.makeTable(arrayCapacity: words.count - scriptIndex)
    for (index, word) in words.enumerated() {
      let bytes = ArgumentText.bytes(of: word)  // as given, UTF-8 or not
      try table.rawSet(.integer(Int64(index - scriptIndex)), .string(LuaString(bytes: bytes)))
    }
    try lua.globals().set("arg", .table(table))
  }

  private func runInit(tree: ScriptedTree, plugins: PluginHost?) throws {
    guard
      let (name, code) = [
        ("LUA_INIT_5_4", environment["LUA_INIT_5_4"]), ("LUA_INIT", environment["LUA_INIT"]),
      ]
      .first(where: { $0.1 != nil }).map({ ($0.0, $0.1!) })
    else { return }
    // The variable's bytes, UTF-8 or not (ProcessEnvironment keeps them), as `lua` reads it.
    let chunk = try tree.withState { lua in
      guard code.hasPrefix("@") else {
        return try lua.load(bytes: ArgumentText.bytes(of: code), name: "=" + name)
      }
      let path = String(code.dropFirst())
      let bytes = try LuaState.readFile(
        atPath: ArgumentText.bytes(of: path), regularFileOnly: true)
      return try lua.load(script: bytes, name: "@" + ArgumentText.display(path))
    }
    try run(chunk, arguments: [], tree: tree, plugins: plugins)
  }

  /// Runs the script with the values of `arg[1]`, `arg[2]`, … as `...`, read from the
  /// global `arg` when the script starts (as `lua` does, so `-e` may change them).
  private func runScript(
    _ script: String, isStdin: Bool, tree: ScriptedTree, plugins: PluginHost?, trusted: Bool
  ) throws {
    // A script may be a pipe (`luahost <(…)`, or stdin), as for `lua`. Either is read up
    // to the size of the largest file: an endless pipe (`- </dev/zero`) is refused there.
    // Stdin is read through C's stdin, as `lua` reads it: from where fd 0 stands, sharing
    // stdio's buffer with `io.read` (opening /dev/stdin again would start over, and fails
    // for a socket).
    var bytes: [UInt8] = []
    if isStdin {
      // A stdin the parent closed was opened on /dev/null (main.swift): as `lua`, refuse it.
      guard !stdinWasClosed else {
        throw LuaError(kind: .file, message: "cannot read stdin: Bad file descriptor")
      }
      defer { clearerr(cs_stdin()) }
      while case let c = getchar(), c != EOF {
        guard bytes.count < LuaState.maximumFileSize else {
          throw LuaError(
            kind: .file,
            message: "cannot read stdin: larger than \(LuaState.maximumFileSize) bytes")
        }
        bytes.append(UInt8(truncatingIfNeeded: c))
      }
      if ferror(cs_stdin()) != 0 {  // a directory, a write-only descriptor…
        throw LuaError(
          kind: .file, message: "cannot read stdin: \(String(cString: strerror(errno)))")
      }
    } else {
      bytes = try LuaState.readFile(atPath: ArgumentText.bytes(of: script))
    }
    let (chunk, arguments) = try tree.withState { lua -> (LuaFunction, [LuaValue]) in
      // Trusted, a precompiled script runs, as with `lua`; sandboxed, bytecode is refused.
      let chunk = try lua.load(
        script: bytes, name: isStdin ? "=stdin" : "@" + ArgumentText.display(script),
        mode: trusted ? .any : .text)
      guard case .table(let arg) = try lua.globals().get("arg") else {
        throw LuaError(kind: .runtime, message: "'arg' is not a table")
      }
      let count = try Int(luaValue: lua.length(of: .table(arg)))
      guard count < 1_000_000 else {  // Lua's stack limit, as `lua` checks it
        throw LuaError(kind: .runtime, message: "too many arguments to script")
      }
      return (chunk, try (0..<max(count, 0)).map { try arg.get(.integer(Int64($0 + 1))) })
    }
    try run(chunk, arguments: arguments, tree: tree, plugins: plugins)
  }

  /// Runs a chunk as the main chunk of a coroutine of the tree (so it may wait), each step
  /// holding the state's lock, and waits for it to finish.
  private func run(
    _ chunk: LuaFunction, arguments: [LuaValue], tree: ScriptedTree, plugins: PluginHost?
  ) throws {
    // A Ctrl-C that no Lua code raised (it came while the script waited, or as a step
    // ended) cancels the wait, which ends the script as interrupted. Counted from before
    // the first step, which may end just as one comes.
    let unheard = LuaState.unheardSIGINTs
    let (waiting, progress) = try tree.start(chunk, arguments: arguments, asMainChunk: true)
    guard case .suspended = progress else { return }
    let coroutine = Unchecked(waiting)
    // The plugins' running code is interrupted from this thread too: plugins looping in
    // timers may hold every thread of the pool, and the wait's own task needs one to end.
    let interrupted = { () -> Bool in
      guard LuaState.unheardSIGINTs != unheard else { return false }
      for plugin in plugins?.plugins ?? [] { plugin.interrupt() }
      return true
    }
    _ = try Blocking.wait(poll: interrupted) { try await coroutine.value.finish(isolation: nil) }
  }
}

/// Whether finalizers were stopped at exit, past their deadline: each time is reported.
final class ClosingReport {
  private(set) var sawStop = false

  func stopped(_ whose: String, report: (String) -> Void) {
    sawStop = true
    report("\(whose) finalizers were stopped at exit, past their deadline; some did not run")
  }
}
