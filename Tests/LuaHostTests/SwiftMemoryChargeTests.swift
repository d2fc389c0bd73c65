import Foundation
import TestSupport
import Testing

/// Issue 21, class 5: Swift memory a script keeps alive, or makes again and again, is
/// charged to its account, so `--memory` bounds the process's growth.
@Suite(.timeLimit(.minutes(30))) struct SwiftMemoryChargeTests {
  /// Far above what the runs need with their 32 MiB limits, far below what they reached
  /// when Swift's part was free (757 MB for the kept `choose` functions).
  static let ceiling = 250 << 20

  /// In every build (the resident-memory checks below skip under a sanitizer): the limit,
  /// not the process's memory, is what stops a script that keeps Swift memory, and a chain
  /// that keeps nothing runs to its end.
  @Test func theLimitStopsWhatIsKeptAndAChainThatKeepsNothingEnds() throws {
    let kept = try Luahost.run([
      "--memory", "32M", "-e",
      """
      local g = ui.root:add(ui.boundary{ id = 'g' }) local big = ('x'):rep(1 << 20) keep = {}
      local b = g:add(ui.button{ id = 'b', on_tap = function() error(big .. #keep, 0) end })
      local ok, e = pcall(function() for i = 1, 2000 do
        b:tap() local a = g.alert keep[#keep + 1] = a.choose a:choose('That sucks')
      end end)
      print(ok, e, #keep < 2000)
      """,
    ])
    #expect(
      kept.stdout.contains("\nfalse\tnot enough memory\ttrue\n"), "\(kept.stdout)\(kept.stderr)")
    let chain = try Luahost.run(
      [
        "--memory", "32M", "-e",
        "n = 0 local function f() n = n + 1 if n < 50000 then timer.after(0, f) end end f()",
        "-e", "while n < 50000 do timer.sleep(0.01) end print('chain', n)",
      ], timeout: 600)
    #expect(chain.status == 0, "\(chain.stderr)")
    #expect(chain.stdout == "chain\t50000\n")
  }

  @Test(.enabled(if: !Sanitizers.any, "a sanitizer's own memory counts in resident memory"))
  func keepingAlertChooseFunctionsIsCharged() throws {
    let line = """
      local g = ui.root:add(ui.boundary{ id = 'g' }) \
      local big = ('x'):rep(1 << 20) keep = {} \
      local b = g:add(ui.button{ id = 'b', on_tap = function() error(big .. #keep, 0) end }) \
      print(pcall(function() for i = 1, 2000 do \
        b:tap() local a = g.alert keep[#keep + 1] = a.choose a:choose('That sucks') \
        a = nil end end), #keep)
      """
    let peak = try Luahost.peakMemory(["--memory", "32M"], running: line)
    #expect(peak < Self.ceiling, "peak RSS \(peak >> 20) MiB")
  }

  /// `ui.root` is the host's window: it pays for nothing, so the script whose error it is
  /// pays (80 alerts of 4 MiB took 1.6 GB here before).
  @Test(.enabled(if: !Sanitizers.any, "a sanitizer's own memory counts in resident memory"))
  func alertsRaisedAtAViewTheHostMadeAreCharged() throws {
    let line = """
      local big = ('x'):rep(4 << 20) \
      for i = 1, 80 do pcall(ui.root.env.error_handler, function() error(i .. big, 0) end) end
      """
    let peak = try Luahost.peakMemory(["--memory", "32M"], running: line)
    #expect(peak < Self.ceiling, "peak RSS \(peak >> 20) MiB")
  }

  /// 32 names of 4 KiB copied into Swift for each boundary (7.9 GB here before).
  @Test(.enabled(if: !Sanitizers.any, "a sanitizer's own memory counts in resident memory"))
  func resetKeysAreCharged() throws {
    let line = """
      local keys = {} for i = 1, 32 do keys[i] = ('k'):rep(4095) .. string.char(64 + i) end \
      keep = {} print(pcall(function() for i = 1, 20000 do \
        keep[i] = ui.boundary{id = 'b', reset_keys = keys} end end))
      """
    let peak = try Luahost.peakMemory(["--memory", "32M"], running: line)
    #expect(peak < Self.ceiling, "peak RSS \(peak >> 20) MiB")
  }

  /// A list a script hands the host is bounded before its entries are copied: 32 names
  /// that are one 25 MB string took 1.7 GB (six plugins: 9.3 GB) before the 4 KiB bound
  /// on a name refused them; and labels (8 actions', a boundary's three) copied the same
  /// string whole only to cut it to 60 characters (a hostile review).
  @Test(.enabled(if: !Sanitizers.any, "a sanitizer's own memory counts in resident memory"))
  func aListIsRefusedBeforeItsEntriesAreCopied() throws {
    let line = """
      local s = ('k'):rep(25 << 20) local keys = {} for i = 1, 32 do keys[i] = s end \
      local actions = {} for i = 1, 8 do actions[i] = {s, print} end \
      for i = 1, 3 do print(pcall(ui.boundary, {reset_keys = keys})) end \
      for i = 1, 3 do print(pcall(ui.error, {message = 'm', actions = actions})) end \
      for i = 1, 3 do ui.boundary{dismiss = s, retry_label = s, reset_label = s} end
      """
    let peak = try Luahost.peakMemory(["--memory", "64M"], running: line)
    #expect(peak < Self.ceiling, "peak RSS \(peak >> 20) MiB")
  }

  /// What a plugin's `on_unload` hands to its next version is bounded before it is
  /// copied: a table holding one 8 MB string 200 times (1.6 GB of copies) was copied whole
  /// before the 16 MiB bound refused it (a hostile review: 6 GB with 20 MB × 300).
  @Test(.enabled(if: !Sanitizers.any, "a sanitizer's own memory counts in resident memory"))
  func anOnUnloadValueIsRefusedBeforeItIsCopied() throws {
    let folder = try Luahost.temporaryFolder([
      "p.lua": """
      local s = string.rep('h', 8 << 20) local t = {} for i = 1, 200 do t[i] = s end
      function on_unload() return t end
      print('version 1')
      """
    ])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let peak = try Luahost.peakMemory(
      ["--plugins", folder, "--watch"],
      steps: [
        // The watch is set once it says so: an edit before may not be seen.
        Luahost.Step(expect: "for changes"),
        Luahost.Step(
          action: {
            try Luahost.temporaryFileContents(
              "print('version 2', ... == nil)", at: folder + "/p.lua")
          }, expect: "version 2\ttrue"),
      ])
    #expect(peak < Self.ceiling, "peak RSS \(peak >> 20) MiB")
  }

  /// A label's piece ends with a whole character: a cut inside one made a valid label
  /// invalid UTF-8, and the boundary, the alert's action or `on_error`'s failed with it.
  @Test func aLongLabelIsCutBetweenCharacters() throws {
    let result = try Luahost.run(
      ["-i"],
      stdin: """
        long = ('é'):rep(2049)
        print(pcall(ui.boundary, {dismiss = long, retry_label = long, reset_label = long}))
        guard = ui.root:add(ui.boundary{id = 'g'})
        guard:add(ui.button{id = 'b', on_tap = function() error(ui.error{message = 'm', actions = {{long, print}}}) end})
        ui.find('b'):tap()

        """)
    #expect(result.stdout.contains("true\tboundary#boundary\n"), "\(result.stdout)")
    #expect(result.stdout.contains("  message: m\n"), "\(result.stdout)")
    #expect(result.stdout.contains("buttons: 1 " + String(repeating: "é", count: 10)))
    #expect(!result.stdout.contains("UTF-8"), "\(result.stdout)")
  }

  @Test func aResetKeyIsAName() throws {
    let result = try Luahost.run([
      "-e", "print(pcall(ui.boundary, {reset_keys = {('k'):rep(4097)}}))",
    ])
    #expect(
      result.stdout == "false\treset_keys: an entry is at most 4096 bytes\n", "\(result.stdout)")
  }

  @Test(.enabled(if: !Sanitizers.any, "a sanitizer's own memory counts in resident memory"))
  func keptTimerHandlesAreCharged() throws {
    let line = """
      keep = {} local ok, e = pcall(function() for i = 1, 1e6 do \
        keep[i] = timer.after(0, function() end) \
        if i % 1000 == 0 then timer.sleep(0) end end end) \
      local n = #keep keep = nil collectgarbage() print(ok, e, n)
      """
    let peak = try Luahost.peakMemory(["--memory", "32M"], running: line)
    #expect(peak < Self.ceiling, "peak RSS \(peak >> 20) MiB")
    // And the limit, not a count, is what stopped it: the error is the memory error. (The
    // handles are dropped before printing: at the limit, print itself may find no room.)
    let result = try Luahost.run(["--memory", "32M", "-i"], stdin: line + "\n")
    #expect(result.stdout.contains("false\tnot enough memory"), "\(result.stdout)")
  }

  @Test(.enabled(if: !Sanitizers.any, "a sanitizer's own memory counts in resident memory"))
  func aTimerChainThatKeepsNothingStaysBounded() throws {
    let line = """
      n = 0 local function f() n = n + 1 if n < 200000 then timer.after(0, f) end end f() \
      while n < 200000 do timer.sleep(0.01) end print('chain', n)
      """
    let peak = try Luahost.peakMemory(["--memory", "32M"], running: line, timeout: 600)
    #expect(peak < Self.ceiling, "peak RSS \(peak >> 20) MiB")
  }
}
