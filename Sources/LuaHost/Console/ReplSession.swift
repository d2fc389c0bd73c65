import Lua
import ViewTree

/// A Lua console, independent of any terminal: evaluates input (expressions print their
/// values, statements print nothing, unfinished chunks continue), runs `.commands`, keeps
/// `_`, and collects the alerts to draw. `luahost`'s REPL is one front end; an app embeds
/// the same console in its own window or debug overlay:
///
/// ```swift
/// let console = try ReplSession(makeState: { try LuaState(sandbox: LuaSandbox()) },
///                               makeWindow: { appWindow })
/// switch console.submit("ui.root.id") {
/// case .output(let text): show(text)                 // "root"
/// case .error(let text): show(text, style: .error)
/// case .incomplete: showPrompt(console.prompt)       // ">> "
/// case .exit: closeConsole()
/// }
/// for (alert, _) in console.takeAlerts() { show(AlertFormatter.plain(alert)) }
/// ```
///
/// A session is not thread-safe: use it from one thread (or actor) at a time. Its state is
/// confined to the state's lock, as every scripted tree's is: the session takes the lock
/// for each line, and your own code reaches the state through ``withState(_:)``.
public final class ReplSession {
  /// What one line of input gave.
  public enum Reply: Equatable {
    /// The chunk is unfinished: read another line under the continuation prompt.
    case incomplete
    /// Text to print (may be empty).
    case output(String)
    /// An error to print.
    case error(String)
    /// `.exit`.
    case exit
    /// The line waits for async work (`timer.sleep`, an async function): await
    /// ``Evaluation/reply()`` for what it gives, or cancel it.
    case waiting(Evaluation)
  }

  /// A line that waits for async work.
  public final class Evaluation: Equatable, @unchecked Sendable {
    // `@unchecked Sendable`: the front end awaits `reply()` in one task while it does
    // nothing else with the session; each step of the coroutine takes the state's lock.
    let coroutine: LuaCoroutine
    /// Strong: the front end may drop the session while the line waits (a console closed
    /// during `timer.sleep`), and the reply still reads it. The session keeps no
    /// evaluation, so there is no cycle.
    let session: ReplSession

    init(coroutine: LuaCoroutine, session: ReplSession) {
      self.coroutine = coroutine
      self.session = session
    }

    /// Finishes the line and gives its reply, as ``ReplSession/submit(_:)`` would have.
    /// Cancelling the task that awaits this interrupts the line.
    public func reply() async -> Reply {
      do {
        let results = try await coroutine.finish(isolation: nil)
        return try session.tree.withState { _ in session.show(results) }
      } catch {
        return session.describe(error)
      }
    }

    /// Identity.
    public static func == (a: Evaluation, b: Evaluation) -> Bool { a === b }
  }

  /// The state in use (replaced by `.reset`). Not public: as for every tree, the one way
  /// to a session's state is ``withState(_:)``, which holds its lock; what is safe from any
  /// thread without it is offered directly (``interruptHandle``, ``makeCompleter()``).
  package internal(set) var lua: LuaState
  /// The app tree in use (replaced by `.reset`).
  public internal(set) var tree: ScriptedTree
  /// The input collected so far for an unfinished chunk.
  /// (Bytes, not text: a line with invalid UTF-8 reaches Lua unchanged.)
  public internal(set) var pendingChunk: [UInt8] = []
  /// Renders results.
  public var printer: PrettyPrinter
  let collector = AlertCollector()
  /// The plugins loaded with `--plugins`, for `.plugins`.
  public var pluginHost: PluginHost?
  let makeState: () throws -> LuaState
  let makeWindow: () throws -> View
  let components: [ScriptedComponent]
  let profile: String

  /// Creates a session.
  /// - Parameters:
  ///   - makeState: builds a fresh state (called again by `.reset`).
  ///   - makeWindow: the app tree `ui` scripts (called again by `.reset`; it may return the
  ///     same window). The session collects the alerts of that tree for ``takeAlerts()``,
  ///     and passes them on to the presenter the window already had.
  ///   - components: app-defined kinds of view that `ui` offers (see ``ScriptedComponent``).
  ///   - profile: the text `.sandbox` prints (the limits in effect, say).
  ///   - colors: whether results use ANSI colours.
  /// - Throws: `LuaError` if the state cannot be made, and what `makeWindow` throws.
  public init(
    makeState: @escaping () throws -> LuaState, makeWindow: @escaping () throws -> View,
    components: [ScriptedComponent] = [], profile: String = "", colors: Bool = false
  ) throws {
    self.makeState = makeState
    self.makeWindow = makeWindow
    self.components = components
    self.profile = profile
    printer = PrettyPrinter(colors: colors)
    let window = try makeWindow()
    collector.attach(to: window)
    lua = try makeState()
    tree = try ScriptedTree(lua: lua, root: window, components: components)
  }

  /// Whether the session behaves as `lua -i` does: results go to the global `print`, and
  /// prompts come from `_PROMPT` and `_PROMPT2` (through `tostring`) when they are set.
  /// Set for trusted sessions reading from a pipe, where luahost stands in for `lua`.
  public var isLuaCompatible = false

  /// Runs `body` with the session's state, holding its lock (see
  /// ``ScriptedTree/withState(_:)``).
  /// - Throws: what `body` throws, or (`usage`) when waiting for the lock would deadlock.
  public func withState<T>(_ body: (LuaState) throws -> T) throws -> T {
    try tree.withState(body)
  }

  /// Stops the chunk that runs now, from any thread (a console's Ctrl-C): it fails with an
  /// `.interrupted` error, which its own code cannot catch; with none running, it does
  /// nothing, and never reaches a later chunk. Read it for each chunk: `.reset`
  /// makes a new state, with a handle of its own.
  public var interruptHandle: LuaInterruptHandle { lua.interruptHandle }

  /// Tab completion over the session's state as it is now (make a new one after `.reset`);
  /// each completion takes the state's lock itself.
  public func makeCompleter() -> Completer { Completer(lua: lua) }

  /// The prompt to show: `> `, or `>> ` inside an unfinished chunk.
  public var prompt: String {
    let (name, standard) = pendingChunk.isEmpty ? ("_PROMPT", "> ") : ("_PROMPT2", ">> ")
    guard isLuaCompatible else { return standard }
    return
      (try? withState { lua in
        guard let value = try? lua.globals().get(name), !value.isNil else { return standard }
        return (try? lua.string(describing: value)) ?? standard
      }) ?? standard
  }

  /// The session's latest alerts (at most 100), as records with their latest count.
  public var alertHistory: [Alert] { collector.history }

  /// The alert raised last in the session's window, with its boundary: `.choose N`
  /// presses its buttons and `.details` shows its handler chain and traceback. The session
  /// keeps it itself, so a front end need do nothing for those commands to work; one that
  /// draws an older alert after a newer one says so with ``drew(_:boundary:)``.
  public var lastAlert: (alert: Alert, boundary: View)? { collector.latest }

  /// Tells the session that the front end drew `alert` (and took its default, or a choice),
  /// making it the one `.choose` and `.details` act on. Optional: see ``lastAlert``.
  public func drew(_ alert: Alert, boundary: View) {
    collector.latest = (alert, boundary)
  }

  /// Presses button `index` (from 0) of the last drawn alert; it need not be up any more.
  @discardableResult
  public func choose(at index: Int) -> AlertChoice {
    guard let (alert, boundary) = lastAlert else { return .notFound }
    return (try? tree.withState { _ in boundary.choose(at: index, of: alert) }) ?? .notFound
  }

  /// Alerts presented since the last call, each with its boundary, oldest first.
  public func takeAlerts() -> [(alert: Alert, boundary: View)] {
    collector.takePending()
  }

  /// Handles one line of input.
  public func submit(_ line: String) -> Reply { submit(bytes: Array(line.utf8)) }

  /// Handles one line of input, as bytes.
  public func submit(bytes line: [UInt8]) -> Reply {
    // The tree of this line: `.reset` replaces `tree`, and the old state closes once its
    // lock is given back here.
    let current = tree
    do {
      return try current.withState { _ in submitHoldingLock(bytes: line) }
    } catch {
      return describe(error)
    }
  }

  private func submitHoldingLock(bytes line: [UInt8]) -> Reply {
    if pendingChunk.isEmpty, line.first == UInt8(ascii: "."),
      let reply = command(String(decoding: line, as: UTF8.self))
    {
      return reply
    }
    let chunk = pendingChunk.isEmpty ? line : pendingChunk + [UInt8(ascii: "\n")] + line
    // `lua -i` tries a chunk as an expression on its first line only: continued, it is
    // statements (`--[[ note` then `]] 1 + 1` is a syntax error there, not 2).
    switch evaluate(chunk, asExpression: pendingChunk.isEmpty || !isLuaCompatible) {
    case .incomplete:
      pendingChunk = chunk
      return .incomplete
    case let reply:
      pendingChunk = []
      return reply
    }
  }

  /// Forgets an unfinished chunk (Ctrl-C at the prompt).
  public func cancelChunk() { pendingChunk = [] }

  /// Prints `results` with the global `print`, as `lua -i` does.
  private func printThroughGlobalPrint(_ results: [LuaValue]) -> Reply {
    guard !results.isEmpty else { return .output("") }
    do {
      let print = try lua.globals().get("print")
      guard case .function(let function) = print else {
        return .error("error calling 'print' (attempt to call a \(print.typeName) value)")
      }
      _ = try function.call(arguments: results)
      return .output("")
    } catch let error as LuaError {
      return .error("error calling 'print' (\(error.message))")
    } catch {
      return .error("error calling 'print' (\(error))")
    }
  }

  /// Evaluates a whole chunk: first as `return <chunk>` (unless not `asExpression`), then
  /// as statements. A chunk starting with `=` is `return` and the rest, as in `lua` (Lua
  /// 5.2 style).
  func evaluate(_ chunk: [UInt8], asExpression: Bool = true) -> Reply {
    var chunk = chunk
    if chunk.first == UInt8(ascii: "=") { chunk = Array("return ".utf8) + chunk.dropFirst() }
    let function: LuaFunction
    if asExpression,
      let expression = try? lua.load(bytes: Array("return ".utf8) + chunk, name: "=stdin")
    {
      function = expression
    } else {
      do {
        function = try lua.load(bytes: chunk, name: "=stdin")
      } catch let error as LuaError {
        if error.kind == .syntax(incomplete: true) { return .incomplete }
        return .error(error.message)
      } catch {
        return .error("\(error)")
      }
    }
    do {
      // As a main chunk: below a C function, as `lua -i` runs a line, so an error's
      // traceback ends with `[C]: in ?` as stock's does.
      let (coroutine, progress) = try tree.start(function, arguments: [], asMainChunk: true)
      guard case .finished(let results) = progress else {
        return .waiting(Evaluation(coroutine: coroutine, session: self))
      }
      return show(results)
    } catch {
      return describe(error)
    }
  }

  /// The reply for a line's results: `_` set, and the values shown.
  func show(_ results: [LuaValue]) -> Reply {
    // Raw: a `__newindex` on _G must not run (unlimited) for the REPL's own bookkeeping.
    if let first = results.first { try? lua.globals().rawSet("_", first) }
    if isLuaCompatible { return printThroughGlobalPrint(results) }
    return .output(results.map(printer.format).joined(separator: "\t"))
  }

  /// The reply for a line that failed.
  func describe(_ error: any Error) -> Reply {
    if let error = error as? LuaError { return .error(error.consoleDescription) }
    return .error("\(error)")
  }
}
