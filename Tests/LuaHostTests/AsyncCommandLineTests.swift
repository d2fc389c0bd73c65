import Foundation
import TestSupport
import Testing

/// `luahost` with async work: scripts and plugins that wait, timers that outlive the main
/// chunk, the REPL waiting for a line, `luahost test` waiting for an alert.
@Suite(.timeLimit(.minutes(30))) struct AsyncCommandLineTests {
  @Test func luahostRunsUntilTheTimersOfTheScriptAndItsPluginsAreDone() throws {
    let folder = try Luahost.temporaryFolder([
      // The order is forced by events, not by delays: the main chunk waits (sleeping in
      // turns) until its first timer has fired, and arms its last timer as it ends.
      "main.lua": """
      print('start')
      timer.after(0.01, function() print('timer fired') fired = true end)
      while not fired do timer.sleep(0.01) end
      print('main saw the timer')
      timer.after(0.05, function() print('late timer fired') end)
      """,
      "plugins/one.lua": "timer.sleep(0.02) print('one woke')",
      "plugins/two.lua": "timer.sleep(0.02) print('two woke')",
    ])
    let result = try Luahost.run(["--plugins", "plugins", "main.lua"], directory: folder)
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      Set(lines) == [
        "start", "timer fired", "main saw the timer", "late timer fired", "[one] one woke",
        "[two] two woke",
      ])
    // Only the main script's own lines are ordered: the plugins' timers may fire before
    // `start` on a slow machine (they start as the plugins load, before main.lua).
    let order = ["start", "timer fired", "main saw the timer", "late timer fired"].map {
      lines.firstIndex(of: $0) ?? -1
    }
    #expect(order == order.sorted() && !order.contains(-1), "\(lines)")
  }

  /// A cancelled timer gives back what it held when it is cancelled, not at its due time:
  /// each timer's task slept until its due, and a cancelled sleep keeps the runtime's timer
  /// until then (about 115 bytes each: 3,000,000 cancels of 1e9 s timers grew the host to
  /// 384 MB, against 40 MB for 1 s timers). Peak resident memory, read by the script.
  @Test(.disabled(if: Sanitizers.any, "a sanitizer's allocator keeps freed memory"))
  func cancelledLongTimersKeepNoMemory() throws {
    let script = try Luahost.temporaryFile(
      """
      local delay = tonumber(arg[1])
      local f = function() end
      for round = 1, 10 do
        for i = 1, 20000 do timer.after(delay, f):cancel() end
        collectgarbage()
        timer.sleep(0.01)
      end
      local status = io.open('/proc/self/status'):read('a')
      print(status:match('VmHWM:%s*(%d+)'))
      """)
    defer { try? FileManager.default.removeItem(atPath: script) }
    func peak(delay: String) throws -> Int {
      let result = try Luahost.run(["--allow", "io", script, delay])
      #expect(result.status == 0, "\(result.stderr)")
      return Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
    let short = try peak(delay: "0.001")
    let long = try peak(delay: "1e9")
    #expect(short > 0 && long > 0)
    // 200,000 cancels kept about 23 MB before.
    #expect(long - short < 10_000, "peak \(long) KB against \(short) KB")
  }

  /// A run under a deadline that waits keeps nothing once it ends: its deadline's timer
  /// (a task that slept until the deadline, cancelled as the run ended) kept about 0.7 KB
  /// until then, so timer actions that each waited grew `luahost --timeout 100000s` by
  /// that much each (163 MB after 200,000). Twice the actions, the same peak now.
  @Test(.disabled(if: Sanitizers.any, "a sanitizer's allocator keeps freed memory"))
  func runsThatWaitedKeepNoMemoryUntilTheirDeadline() throws {
    let script = try Luahost.temporaryFile(
      """
      local n, last = 0, tonumber(arg[1])
      local function tick()
        n = n + 1
        timer.sleep(0)
        if n < last then timer.after(0, tick) return end
        print(io.open('/proc/self/status'):read('a'):match('VmHWM:%s*(%d+)'))
      end
      timer.after(0, tick)
      """)
    defer { try? FileManager.default.removeItem(atPath: script) }
    func peak(actions: Int) throws -> Int {
      let result = try Luahost.run(["--allow", "io", "--timeout", "100000s", script, "\(actions)"])
      #expect(result.status == 0, "\(result.stderr)")
      return Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
    let fewer = try peak(actions: 30_000)
    let more = try peak(actions: 60_000)
    #expect(fewer > 0 && more > 0)
    // 30,000 more actions kept about 21 MB more before.
    #expect(more - fewer < 10_000, "peak \(more) KB against \(fewer) KB")
  }

  /// Removing views whose timers' tasks already wait cancels those timers, and every later
  /// removal still cancels its view's work: a timer's task dropped its timer from inside
  /// `Task.cancel()`, which ended the view's work while the view cancelled it, so the
  /// process's count of views with work went down twice, and from then on no removal
  /// cancelled anything (a hostile review: timers ran after their views were removed, and
  /// `luahost` waited for them).
  @Test func removingViewsWithWaitingTimersKeepsCancellingWork() throws {
    let script = try Luahost.temporaryFile(
      """
      local function viewWithTimer(name, delay)
        local v = ui.root:add(ui.button{ id = name, on_tap = function()
          timer.after(delay, function() print(name .. ' ran after its view was removed') end)
        end })
        v:tap()
        return v
      end
      local a1, a2 = viewWithTimer('a1', 0.5), viewWithTimer('a2', 0.5)
      timer.after(0.1, function()
        a1:remove() a2:remove()
        local b = viewWithTimer('b', 0.3)
        b:remove()
        local w = ui.root:add(ui.button{ id = 'w', on_tap = function()
          timer.sleep(0.3) print('w went on after its view was removed')
        end })
        w:tap() w:remove()
        print('removed')
      end)
      """)
    defer { try? FileManager.default.removeItem(atPath: script) }
    let result = try Luahost.run([script])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "removed\n")
  }

  @Test func anErrorInATimerIsAnUnhandledAlertAndExitStatusOne() throws {
    let script = try Luahost.temporaryFile("timer.after(0.01, function() error('late boom') end)")
    let result = try Luahost.run([script])
    #expect(result.status == 1)
    #expect(result.stdout.contains("alert: Unhandled error"))
    #expect(result.stdout.contains("late boom"))
  }

  /// Different errors at one boundary queue behind its current alert. A run has no one to
  /// dismiss alerts, and printed only the first: the others were seen nowhere.
  @Test func everyQueuedAlertIsPrinted() throws {
    let script = try Luahost.temporaryFile(
      """
      timer.after(0, function() error("first") end)
      timer.after(0, function() error("second") end)
      timer.after(0, function() error("third") end)
      """)
    let result = try Luahost.run([script])
    #expect(result.status == 1)
    for word in ["first", "second", "third"] {
      #expect(result.stdout.contains(": \(word)\n"), "\(result.stdout)")
    }
    #expect(result.stdout.components(separatedBy: "alert: Unhandled error\n").count == 4)
  }

  @Test func anErrorAfterTheMainChunkWaitedFailsTheScriptAsUsual() throws {
    let script = try Luahost.temporaryFile("timer.sleep(0.01)\nerror('after the wait')")
    let result = try Luahost.run([script])
    #expect(result.status == 1)
    #expect(result.stderr.contains(":2: after the wait"), "\(result.stderr)")
  }

  @Test func thePipedReplWaitsForALineThatWaits() throws {
    let result = try Luahost.run(
      ["-i"], stdin: "timer.sleep(0.01) return 40 + 2\nreturn _ + 1\n")
    #expect(result.stdout.contains("> 42\n"), "\(result.stdout)")
    #expect(result.stdout.contains("> 43\n"), "\(result.stdout)")
  }

  @Test func luahostTestWaitsForAnAlertThatComesLater() throws {
    let folder = try Luahost.temporaryFolder([
      "async_test.lua": """
      describe('async', function()
        test('later', function()
          local guard = ui.root:add(ui.boundary{ id = 'g' })
          local b = guard:add(ui.button{ id = 'b', on_tap = function()
            timer.sleep(0.02)
            error('disk full')
          end })
          -- (a generous bound on the wait: the alert ends it as soon as it comes)
          expect.alert(function() b:tap() end,
            { boundary = 'g', message = 'disk full', within = 60 })
        end)
        test('an alert that never comes fails', function()
          expect.alert(function() timer.after(30, function() end) end, { within = 0.05 })
        end)
      end)
      """
    ])
    let result = try Luahost.run(["test", folder])
    #expect(result.stdout.contains("PASS async later"), "\(result.stdout)")
    #expect(
      result.stdout.contains("FAIL async an alert that never comes fails"), "\(result.stdout)")
    #expect(result.status == 1)
  }
}
