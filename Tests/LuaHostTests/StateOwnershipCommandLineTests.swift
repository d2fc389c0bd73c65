import Foundation
import TestSupport
import Testing

/// `luahost` with timers racing the script: the state has one owner, so timers wait for
/// the main chunk (and each other) instead of running the same `lua_State` at once.
@Suite(.timeLimit(.minutes(30))) struct StateOwnershipCommandLineTests {
  /// Issue 21's one-liner crashed 7 runs of 7 (SIGSEGV): 300 timers fired on pool threads
  /// while `-e` code ran on the main thread without the state's lock.
  @Test func timersThatFireWhileTheScriptRunsWaitForIt() throws {
    let code = """
      fired = 0
      for i = 1, 300 do
        timer.after(i * 0.001, function()
          for j = 1, 1e4 do local x = {j} end
          fired = fired + 1
          if fired == 300 then print('fired ' .. fired) end
        end)
      end
      for i = 1, 1e7 do local y = {i} end
      print('main done')
      """
    for _ in 1...3 {
      let result = try Luahost.run(["-e", code])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout == "main done\nfired 300\n", "\(result.stderr)")
    }
  }

  @Test func aScriptFileAndTheReplLineTakeTurnsWithTimersToo() throws {
    let script = try Luahost.temporaryFile(
      """
      local n = 0
      for i = 1, 100 do timer.after(0, function() n = n + 1 end) end
      for i = 1, 3e6 do local y = {i} end
      timer.sleep(0.01)
      for i = 1, 3e6 do local y = {i} end
      -- Waits for the hundred as an event (a delay alone could beat them on a busy machine).
      timer.after(0.05, function()
        while n < 100 do timer.sleep(0.01) end
        print('timers ' .. n)
      end)
      """)
    let result = try Luahost.run([script])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "timers 100\n")
    let repl = try Luahost.run(
      ["-i"],
      stdin: "for i = 1, 50 do timer.after(0, function() end) end\n"
        + "for i = 1, 3e6 do local y = {i} end\n" + "= 'after'\n")
    #expect(repl.status == 0, "\(repl.stderr)")
    #expect(repl.stdout.contains("after"), "\(repl.stdout)")
  }

  /// A plugin's timer raises, dismisses and redraws on its own thread while the REPL draws
  /// alerts after each line and runs `.alerts` and `.tree` (found by a hostile review: the
  /// alert collector was read with no lock, and `.tree` walked the views with the tree lock
  /// set aside; release and debug builds crashed in 6 runs of 6, SIGSEGV or SIGILL, within
  /// a second). Whatever the timing, the session must end normally.
  @Test func aPluginsAlertsAndViewsChangeWhileTheReplDrawsThem() throws {
    let plugins = try Luahost.temporaryFolder([
      "a.lua": """
      local b = ui.root:add(ui.button{ id = "b", on_tap = function() error("boom") end })
      local g = ui.root:add(ui.group{ id = "g" })
      timer.after(0, function()
        for i = 1, 20000 do
          b:tap()
          ui.root:dismiss()
          local t = g:add(ui.text{ id = "t", text = tostring(i) })
          g.title = "title " .. i
          t:remove()
        end
      end)
      """
    ])
    defer { try? FileManager.default.removeItem(atPath: plugins) }
    // Fewer lines under a sanitizer (a run takes 35 s under ThreadSanitizer, 6 s plainly).
    let count = Sanitizers.any ? 2000 : 5000
    let lines = Array(repeating: "1\n.alerts\n.tree\n", count: count).joined()
    for _ in 1...2 {
      let result = try Luahost.run(["-i", "--plugins", plugins], stdin: lines, timeout: 600)
      #expect(result.status == 0, "\(result.stderr.suffix(2000))")
    }
  }

  /// `.reset` while a plugin raises alerts on its own thread: the REPL hung for good (a
  /// hostile review, 8 runs of 8). The collector had a lock of its own, and dropping a
  /// kept boundary inside it ran `View.deinit`, which waits for the tree lock, while the
  /// plugin's thread held the tree lock and waited for the collector's.
  @Test func resetWhileAPluginRaisesAlertsEnds() throws {
    let plugins = try Luahost.temporaryFolder([
      "p.lua": """
      local n = 0
      local function tick()
        n = n + 1
        local b = ui.root:add(ui.boundary{ id = "b" .. n })
        b:add(ui.button{ id = "x" .. n, on_tap = function() error("e" .. n, 0) end }):tap()
        b:remove()
        timer.after(0, tick)
      end
      timer.after(0, tick)
      """
    ])
    defer { try? FileManager.default.removeItem(atPath: plugins) }
    let result = try Luahost.run(
      ["-i", "--plugins", plugins],
      // Each reset after a short wait, so that the plugin's ticks run between them.
      stdin: String(repeating: "timer.sleep(0.005)\n.reset\n", count: 200))
    #expect(result.status == 0, "\(result.stderr.suffix(500))")
    #expect(result.stdout.components(separatedBy: "fresh state and app tree").count == 201)
  }

  @Test func minusECodeMayWait() throws {
    let result = try Luahost.run(["-e", "timer.sleep(0.01) print('waited')"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "waited\n")
  }
}

/// `--timeout` bounds the whole run (issue 21): an endless timer chain under `--timeout 1s`
/// ends, with its work cancelled and a failure; a run that finishes in time is unaffected.
@Suite(.timeLimit(.minutes(30))) struct WholeRunTimeoutTests {
  @Test func anEndlessTimerChainEndsAtTheTimeout() throws {
    let chain = "local function f() timer.after(0.01, f) end f()"
    let result = try Luahost.run(["--timeout", "3s", "-e", chain])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr.contains("passed its --timeout"), "\(result.stderr)")
    let quick = try Luahost.run([
      "--timeout", "30s", "-e", "timer.after(0.01, function() print('done') end)",
    ])
    #expect(quick.status == 0, "\(quick.stderr)")
    #expect(quick.stdout == "done\n")
  }

  /// The finalizers left at exit run under what is left of --timeout, not a deadline of
  /// their own on top of it, and a stop there is reported and fails the run.
  @Test func finalizersAtExitRunInsideTheTimeout() throws {
    let script = try Luahost.temporaryFile(
      "keep = setmetatable({}, {__gc = function() while true do end end}) while true do end")
    let result = try Luahost.run(["--timeout", "3s", script])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr.contains("execution timed out"), "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "the script's finalizers were stopped at exit, past their deadline; some did not run"),
      "\(result.stderr)")
    // Finalizers that end are not cut off.
    let gentle = try Luahost.run([
      "--timeout", "30s", "-e", "keep = setmetatable({}, {__gc = function() print('bye') end})",
    ])
    #expect(gentle.status == 0, "\(gentle.stderr)")
    #expect(gentle.stdout == "bye\n")
  }

  /// Plugins' finalizers at exit share one budget, and each stop is reported.
  @Test func pluginFinalizersAtExitShareOneBudget() throws {
    let looping = "keep = setmetatable({}, {__gc = function() while true do end end})"
    let folder = try Luahost.temporaryFolder([
      "plugins/a.lua": looping, "plugins/b.lua": looping, "plugins/c.lua": looping,
      "main.lua": "print('main done')",
    ])
    let result = try Luahost.run(["--plugins", "plugins", "main.lua"], directory: folder)
    #expect(result.stdout == "main done\n")
    for name in ["a", "b", "c"] {
      #expect(
        result.stderr.contains("plugin \(name)'s finalizers were stopped at exit"),
        "\(result.stderr)")
    }
  }

  /// One plugin's looping finalizers do not use up another's time at exit: each plugin
  /// gets a share of what is left (a hostile review: the first plugin's loop took the whole
  /// second, and b's finalizer never ran).
  @Test func aPluginsLoopingFinalizerLeavesTheOthersTheirTurn() throws {
    let folder = try Luahost.temporaryFolder([
      "plugins/a.lua": "keep = setmetatable({}, {__gc = function() while true do end end})",
      "plugins/b.lua": "keep = setmetatable({}, {__gc = function() print('b finalized') end})",
      "main.lua": "print('main done')",
    ])
    // What is left of --timeout is the budget (one second without it): a keeps half, and
    // b's share is then seconds, not the half second a stall on a loaded machine could eat.
    let result = try Luahost.run(
      ["--timeout", "6s", "--plugins", "plugins", "main.lua"], directory: folder)
    #expect(result.stdout.contains("b finalized"), "\(result.stdout) \(result.stderr)")
    #expect(result.stderr.contains("plugin a's finalizers were stopped at exit"))
    #expect(!result.stderr.contains("plugin b's finalizers were stopped"), "\(result.stderr)")
  }

  /// Each timer's callback used to get a fresh deadline of its own: twenty looping timers
  /// under `--timeout 1s` ran for 20 s. Now the first loops until the end of the run, and
  /// none starts after it.
  @Test func timersThatLoopEndWithTheRun() throws {
    let code = """
      for i = 1, 20 do
        timer.after(0, function() print('started ' .. i) while true do end end)
      end
      """
    let result = try Luahost.run(["--timeout", "1s", "-e", code])
    #expect(result.status == 1, "\(result.stderr)")
    let started = result.stdout.split(separator: "\n").filter { $0.hasPrefix("started") }
    #expect(started.count <= 1, "\(result.stdout)")
  }

  /// Each plugin's main chunk used to get a fresh deadline too, and the script ran after
  /// them all: ten looping plugins and `-e` under `--timeout 1s` took 10 s, and the script
  /// still printed. The first plugin now loops until the end; the script never starts.
  @Test func pluginsThatLoopEndWithTheRunAndTheScriptDoesNotStartAfterIt() throws {
    var files: [String: String] = [:]
    for index in 1...10 {
      files["plugins/p\(index).lua"] = "print('started') while true do end"
    }
    let folder = try Luahost.temporaryFolder(files)
    let result = try Luahost.run(
      ["--timeout", "1s", "--plugins", "plugins", "-e", "print('main')"], directory: folder)
    #expect(result.status == 1, "\(result.stderr)")
    #expect(!result.stdout.contains("main"), "\(result.stdout)")
    let started = result.stdout.split(separator: "\n").filter { $0.hasSuffix("started") }
    #expect(started.count <= 1, "\(result.stdout)")
    #expect(!result.stderr.contains("waiting work left"), "\(result.stderr)")
  }

  /// Work that no deadline reaches: a trusted `__gc` (Lua runs finalizers with hooks off)
  /// looped at exit forever, and a blocking call of a granted library ran on past the
  /// end. The backstop ends the run a grace after its end, and says why.
  @Test func workNoDeadlineReachesIsCutOffAfterTheEnd() throws {
    let trusted = try Luahost.run([
      "--trusted", "--timeout", "3s", "-e",
      "setmetatable({}, {__gc = function() while true do end end})",
    ])
    #expect(trusted.status == 1, "\(trusted.stderr)")
    #expect(trusted.stderr.contains("passed its --timeout of 3.0 seconds and did not end"))
    // Opening a FIFO that no one writes to blocks in the kernel until a writer comes.
    let fifo = FileManager.default.temporaryDirectory.appendingPathComponent(
      "luahost-fifo-\(UUID())"
    ).path
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    let blocking = try Luahost.run([
      "--allow", "io", "--timeout", "3s", "-e",
      "print('before') io.open('\(fifo)'):read() print('after')",
    ])
    #expect(blocking.status == 1, "\(blocking.stderr)")
    #expect(blocking.stdout == "before\n")
    #expect(blocking.stderr.contains("did not end: work no deadline reaches was cut off"))
  }
}
