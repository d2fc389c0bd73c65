import Foundation
import Lua
import LuaHost
import Synchronization
import TestSupport
import Testing
import ViewTree

/// An app can do what `luahost` does (issue 24, item 10): await a plugin's function, run
/// a main chunk that waits, write the JSON-lines error log, and reach a console session's
/// state by the one rule every tree has.
@Suite(.timeLimit(.minutes(30))) struct EmbedderAPITests {
  let root: View
  let container: View
  let recorder: RecordingAlertPresenter

  init() throws { (root, container, recorder) = try pluginWindow() }

  /// No deadline: these scripts wait for timers, whose wake-ups run on the cooperative
  /// pool, and with every suite in parallel on two cores the pool can be busy for minutes
  /// (a 60 s deadline ran out in a full run). The suite's time limit is the hang guard.
  static var limits: LuaSandbox {
    var limits = LuaSandbox()
    limits.timeout = nil
    return limits
  }

  func host(_ source: String, name: String = "stats") throws -> (PluginHost, Plugin) {
    let path = try Luahost.temporaryFolder(["\(name)/init.lua": source]) + "/\(name)"
    let host = PluginHost(container: container, limits: Self.limits, output: { _ in })
    return (host, try host.load(path: path))
  }

  @Test func awaitingAPluginsFunctionGivesItsResultsAfterItWaits() async throws {
    let (_, plugin) = try host(
      """
      function summarize(day) timer.sleep(0.01) return day .. ': 3 notes', 3 end
      function quick() return 'at once' end
      function late_failure() timer.sleep(0.01) error('no notes', 0) end
      """)
    #expect(await plugin.call("summarize", "today") == ["today: 3 notes", 3])
    #expect(await plugin.call("quick") == ["at once"])
    #expect(await plugin.call("missing") == nil)
    #expect(await plugin.call("late_failure") == nil)
    // The failure after the wait is an alert on the plugin's own panel.
    let alert = View.treeLock.withLock { plugin.panel.alert }
    #expect(alert?.message == "no notes")
    #expect(alert?.title == "Error in plugin stats")
  }

  @Test func cancellingTheCallerStopsTheFunctionWithoutAnAlert() async throws {
    // Only a cancellation ends the hour's wait within the suite's time limit, whether it
    // comes before the function starts or while it waits.
    let (_, plugin) = try host("function forever() timer.sleep(3600) return 'woke' end")
    let call = Task { await plugin.call("forever") == nil }
    call.cancel()
    #expect(await call.value)
    #expect(View.treeLock.withLock { plugin.panel.alert } == nil)
  }

  @Test func unloadingThePluginEndsACallThatWaits() async throws {
    let (host, plugin) = try host("function wait() timer.sleep(3600) return 'woke' end")
    let call = Task { await plugin.call("wait") == nil }
    // An event, not a sleep: the call is the panel's running work once it waits.
    while !View.treeLock.withLock({ plugin.panel.hasRunningWork }) { await Task.yield() }
    try host.unload(plugin.name)
    #expect(await call.value)  // only the unload ends the hour's wait in the time limit
    #expect(View.treeLock.withLock { plugin.panel.alert } == nil)
  }

  @Test func cancellingStopsCodeThatNeverWaitsToo() async throws {
    let started = LockedValue(false)
    let run = Task { () -> Bool in
      guard let tree = try? ScriptedTree(lua: LuaState(sandbox: Self.limits), root: View.window()),
        (try? tree.withState({ lua in
          try lua.register("started") { () -> Bool in
            started.withLock { $0 = true }
            return true
          }
        })) != nil,
        let spin = try? tree.withState({ try $0.load("started() while true do end") })
      else { return false }
      do {
        _ = try await tree.run(spin)  // no deadline: only the cancellation ends it
        return false
      } catch let error as LuaError {
        return error.kind == .interrupted
      } catch {
        return false
      }
    }
    while !started.withLock({ $0 }) { await Task.yield() }
    run.cancel()
    #expect(await run.value)
  }

  @Test func aTreeRunsAMainChunkThatWaits() async throws {
    let tree = try ScriptedTree(lua: LuaState(sandbox: Self.limits), root: root)
    let chunk = try tree.withState {
      try $0.load("local n = ... timer.sleep(0.01) ui.root:add(ui.text{id = 'done'}) return n * 2")
    }
    #expect(try await tree.run(chunk, arguments: [21]) == [42])
    #expect(View.treeLock.withLock { root.find("done") } != nil)
    // As a main chunk: `...` are the script's arguments.
    let main = try tree.withState { try $0.load("return select('#', ...), ...") }
    #expect(try await tree.run(main, arguments: ["a", "b"], asMainChunk: true) == [2, "a", "b"])
    let failing = try tree.withState { try $0.load("timer.sleep(0.01) error('late', 0)") }
    let error = try await #require(throws: LuaError.self) { _ = try await tree.run(failing) }
    #expect(error.message == "late")
  }

  @Test func theErrorLogWriterWritesOneJSONLinePerErrorWithThePlugin() throws {
    let lines = LockedValue<[String]>([])
    let writer = ErrorLogWriter { line in lines.withLock { $0.append(line) } }
    root.environment.errorLog = writer.log
    _ = try host("error('broken at load', 0)", name: "broken")
    let logged = lines.withLock { $0 }
    #expect(logged.count == 1)
    let line = try #require(logged.first)
    #expect(line.hasSuffix("}\n"))
    #expect(line.contains("\"plugin\":\"broken\""), "\(line)")
    #expect(line.contains("\"message\":\"broken at load\""), "\(line)")
    #expect(line.contains("\"view\":\"root/plugins/broken\""), "\(line)")
    // A file: appended to, line by line.
    let path = try Luahost.temporaryFile("")
    let file = try ErrorLogWriter(path: path)
    file.write(try ErrorLogEntryProbe.entry())
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.hasPrefix("{\"time\":") && text.hasSuffix("\"unhandled\":false}\n"), "\(text)")
    // A terminal reading the log sees what the text was, not what it would draw.
    let spoof = ErrorLogWriter.line(for: try ErrorLogEntryProbe.entry(message: "a\u{202E}b\u{85}c"))
    #expect(spoof.contains("a\\u202eb\\u0085c"), "\(spoof)")
    let missing = #expect(throws: ErrorLogWriter.CannotOpen.self) {
      try ErrorLogWriter(path: "/nonexistent/folder/errors.jsonl")
    }
    #expect(
      missing?.description
        == "cannot open /nonexistent/folder/errors.jsonl: No such file or directory")
    // A write the system refuses is kept, handed over once, and ends the logging.
    let failures = LockedValue<[ErrorLogWriter.WriteFailure]>([])
    let full = try ErrorLogWriter(path: "/dev/full") { failure in
      failures.withLock { $0.append(failure) }
    }
    #expect(full.failure == nil)
    for _ in 0..<3 { full.write(try ErrorLogEntryProbe.entry()) }
    #expect(full.failure?.description == "cannot write /dev/full: No space left on device")
    #expect(failures.withLock { $0.map(\.description) } == [full.failure?.description])
    #expect(full.unlogged == 3)
  }

  @Test func aConsoleSessionsStateIsReachedByTheTreesRule() throws {
    let session = try ReplSession(
      makeState: { try LuaState(sandbox: Self.limits) }, makeWindow: { View.window(id: "root") })
    _ = session.submit("greeting = 'hi'")
    #expect(try session.withState { try $0.globals().rawGet("greeting") } == "hi")
    #expect(
      try session.withState { lua in try session.tree.withState { _ in lua.memoryInUse } } > 0)
    #expect(session.makeCompleter().completions(for: "gree") == ["greeting"])
    // The handle works from another thread, without the lock: `arm` asks a task to use it
    // while the loop runs, and only the interrupt ends the loop.
    let handle = session.interruptHandle
    try session.withState { lua in
      try lua.register("arm") { () -> Bool in
        // A thread of its own: a task might wait for the busy pool far longer.
        Thread.detachNewThread { handle.interrupt() }
        return true
      }
    }
    guard case .error(let text) = session.submit("arm() while true do end") else {
      Issue.record("the interrupt did not stop the loop")
      return
    }
    #expect(text.contains("interrupted"), "\(text)")
  }

  /// What a fresh-clone run saw: a Ctrl-C at the prompt, read late by the watcher, was
  /// kept for what ran next; the lines after it each failed as "interrupted" (a load took
  /// the stop and never ended it) or as a syntax error (the expression's load failed).
  @Test func anInterruptBetweenLinesReachesNoLaterLine() throws {
    let session = try ReplSession(
      makeState: { try LuaState(sandbox: Self.limits) }, makeWindow: { View.window(id: "root") })
    let handle = session.interruptHandle
    handle.interrupt()
    for _ in 0..<3 { #expect(session.submit("2 * 21") == .output("42")) }
    // One that the watcher made for a line that has ended since.
    let seen = LockedValue<Int64>(0)
    try session.withState { lua in
      try lua.register("note") { () -> Bool in
        seen.withLock { $0 = handle.entries ?? 0 }
        return true
      }
    }
    #expect(session.submit("note()") == .output("true"))
    handle.interrupt(asSeenAt: seen.withLock { $0 })
    for _ in 0..<3 { #expect(session.submit("2 * 21") == .output("42")) }
  }
}

/// One entry, made by routing an error to a boundary of a throwaway tree.
enum ErrorLogEntryProbe {
  static func entry(message: String = "probe") throws -> ErrorLogEntry {
    let entries = LockedValue<[ErrorLogEntry]>([])
    let window = View.window(id: "probe")
    let boundary = View.boundary(id: "guard", BoundaryConfiguration())
    try window.add(boundary)
    window.environment.alertPresenter = RecordingAlertPresenter()
    window.environment.errorLog = { entry in entries.withLock { $0.append(entry) } }
    _ = boundary.environment.errorHandler.handle(LuaError(kind: .runtime, message: message))
    return entries.withLock { $0[0] }
  }
}

/// A table a plugin returns is read holding the plugin's lock: `call(_:_:as:)`.
@Suite(.timeLimit(.minutes(30))) struct TypedPluginCallTests {
  @Test func aTableResultConvertsUnderThePluginsLock() throws {
    let (_, container, _) = try pluginWindow()
    let path = try Luahost.temporaryFile(
      "function titles() return { 'milk', 'report' } end function count() return 'three' end")
    let host = PluginHost(container: container, output: { _ in })
    let plugin = try host.load(path: path)
    #expect(plugin.call("titles", as: [String].self) == ["milk", "report"])
    #expect(plugin.call("missing", as: Int.self) == nil)
    #expect(plugin.call("count", as: Int.self) == nil)  // does not convert: an alert
    let message = View.treeLock.withLock { plugin.panel.alert?.message ?? "" }
    #expect(message.contains("expected"), "\(message)")
  }
}
