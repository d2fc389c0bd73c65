import Foundation
import Lua
import LuaHost
import TestSupport
import Testing
import ViewTree

// Errors that once vanished, found by a hostile review (2026-12-06): each now reaches a
// boundary or fails the run (the suite's tree, state and inbox are AsyncActionTests').
extension AsyncActionTests {
  @Test func anErrorOfAViewNeverAddedReachesTheRootsBoundary() async throws {
    try run(
      """
      local lone = ui.button{ id = 'lone', on_tap = function() error('tap boom') end }
      tapped = lone:tap()
      local later = ui.button{ id = 'later', on_tap = function()
        timer.after(0, function() error('timer boom') end)
      end }
      later:tap()
      """)
    await tree.pendingWork.idle()
    #expect(try run("return tapped") == [false])
    // Both at the root (the second queued behind the first).
    let messages = View.treeLock.withLock { root.alerts.map(\.message) }
    #expect(messages.count == 2, "\(messages)")
    #expect(messages.contains { $0.contains("tap boom") }, "\(messages)")
    #expect(messages.contains { $0.contains("timer boom") }, "\(messages)")
  }
}

@Suite(.timeLimit(.minutes(30))) struct LostErrorCommandLineTests {
  @Test func aTestRegisteredInsideARunningTestFailsIt() throws {
    let folder = try Luahost.temporaryFolder([
      "nested_test.lua": """
      test('outer', function()
        test('inner', function() error('inner fails') end)
      end)
      test('fine', function() end)
      """
    ])
    let result = try Luahost.run(["test", "."], directory: folder)
    #expect(result.status == 1, "\(result.stdout)")
    #expect(
      result.stdout.contains("'inner' is registered inside a running test"), "\(result.stdout)")
    #expect(result.stdout.contains("1 passed, 1 failed"), "\(result.stdout)")
  }

  @Test func resetEndsTheOldStatesTimers() throws {
    let result = try Luahost.run(
      ["-i"],
      stdin: """
        timer.after(2, function() print('old timer') end)
        .reset
        timer.sleep(2.5)

        """)
    #expect(result.status == 0, "\(result.stderr)")
    // Not after the reset (a stall of 2 s before `.reset` may let it run before).
    let afterReset = try #require(result.stdout.range(of: "fresh state and app tree"))
    #expect(!result.stdout[afterReset.upperBound...].contains("old timer"), "\(result.stdout)")
    #expect(!result.stdout.contains("Unhandled"), "\(result.stdout)")
  }

  @Test func aPluginCannotShadowAHostViewsId() throws {
    let folder = try Luahost.temporaryFolder([
      "plugins/evil.lua": """
      ui.root:add(ui.text_field{ id = 'password', on_change = function(self)
        print('evil got ' .. tostring(self.value))
      end })
      """,
      "main.lua": """
      ui.root:add(ui.text_field{ id = 'password' })
      local found = ui.find('password')
      print(found.path)
      found:set_value('hunter2')
      print(ui.find('evil') ~= nil)
      """,
    ])
    let result = try Luahost.run(["--plugins", "plugins", "main.lua"], directory: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("root/password\n"), "\(result.stdout)")
    #expect(!result.stdout.contains("evil got"), "\(result.stdout)")
    // A plugin's views are still found when no other view has the id.
    #expect(result.stdout.contains("root/password\ntrue\n"), "\(result.stdout)")
  }
}

/// Ctrl-C stops the plugins' running code too: two plugins looping in timers hold both
/// threads of a two-core machine's pool, where the script's wait needs one to end, and the
/// exit waited out each plugin's 10 s deadline.
@Suite(.timeLimit(.minutes(30))) struct CtrlCWithBusyPluginsTests {
  @Test(.disabled(if: Sanitizers.threadSanitizer, "TSan defers signals; see Sanitizers"))
  func ctrlCInterruptsPluginsLoopingInTimers() throws {
    let folder = try Luahost.temporaryFolder([
      "plugins/a.lua": "timer.after(0, function() print('looping') while true do end end)",
      "plugins/b.lua": "timer.after(0, function() print('looping') while true do end end)",
    ])
    let process = Process()
    process.executableURL = Luahost.executable
    process.arguments = ["--plugins", "plugins", "-e", "print('waiting') timer.sleep(3600)"]
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    let output = Pipe()
    process.standardOutput = output
    process.standardError = Pipe()
    try process.run()
    let reader = output.fileHandleForReading
    var seen = ""
    let expected = ["[a] looping", "[b] looping", "waiting"]
    while !expected.allSatisfy({ seen.contains($0) }) {
      let chunk = reader.availableData
      if chunk.isEmpty { break }
      seen += String(decoding: chunk, as: UTF8.self)
    }
    kill(process.processIdentifier, SIGINT)
    let rest = String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let all = seen + rest
    #expect(process.terminationStatus == 1, "\(all)")
    // Interrupted, not timed out. (Both plugins are interrupted, but the second one's
    // alert may come after the exit: under AddressSanitizer one of them was not printed.)
    #expect(all.contains("message: interrupted"), "\(all)")
    #expect(!all.contains("timed out"), "\(all)")
  }
}

extension AsyncActionTests {
  /// A finalizer that runs as the state closes cannot start work that would never run: a
  /// timer is refused, and a tap whose action waits fails (both were accepted, and lost).
  @Test func aFinalizerAtCloseCannotStartWorkThatNeverRuns() throws {
    let recorded = LockedValue<[String]>([])
    try tree.withState { lua in
      try lua.register("record") { (text: String) -> Bool in
        recorded.withLock { $0.append(text) }
        return true
      }
    }
    try run(
      """
      local b = ui.root:add(ui.button{ id = 'b', on_tap = function() timer.sleep(0.01) end })
      keep = setmetatable({}, { __gc = function()
        local ok, message = pcall(timer.after, 0, print)
        record(tostring(ok) .. ': ' .. tostring(message))
        record('tap: ' .. tostring(b:tap()))
      end })
      """)
    try tree.withState { $0.close() }
    let lines = recorded.withLock { $0 }
    #expect(lines == ["false: timer.after: the Lua state is closing", "tap: false"], "\(lines)")
  }
}
