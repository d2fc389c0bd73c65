import Foundation
import TestSupport
import Testing

/// Recovery through the real binary: the piped transcript's buttons and `.choose`, and
/// `--error-log`.
@Suite(.timeLimit(.minutes(30))) struct RecoveryCommandLineTests {
  static let retrying = """
    b = ui.root:add(ui.boundary{ id = 'b', retry = true }) n = 0
    b:add(ui.button{ id = 's', on_tap = function() n = n + 1 if n < 3 then error('busy', 0) end end }):tap()

    """

  @Test func thePipedTranscriptPrintsTheButtonsAndChooseNPressesOne() throws {
    let result = try Luahost.run(
      ["-i"],
      stdin: Self.retrying + ".choose 1\n.choose 1\nprint(n, b.alert)\n.details\n.choose 7\n")
    #expect(result.status == 0)
    let out = result.stdout
    #expect(
      out.contains(
        "alert: Error\n  message: busy\n  view: root/b/s\n  source: stdin:1\n"
          + "  buttons: 1 Try again · 2 That sucks (default)\n  dismiss: That sucks\n"))
    // The same failure again: the alert comes back counted.
    #expect(out.contains("chose Try again: retried\nalert: Error ×2\n  message: busy\n"))
    #expect(out.contains("3\tnil\n"))
    #expect(out.contains("handlers: b presented\n"))
    #expect(result.stderr.contains("usage: .choose N (buttons: 1 Try again · 2 That sucks)"))
  }

  @Test func chooseWithoutAnAlertIsAnError() throws {
    let result = try Luahost.run(["-i"], stdin: ".choose 1\n.details\n")
    #expect(result.status == 0)
    #expect(result.stderr.contains("no alert to choose from"))
    #expect(result.stderr.contains("no alert yet"))
  }

  @Test func theErrorLogHasOneJSONLinePerRoutedError() throws {
    let folder = try Luahost.temporaryFolder(["keep": ""])
    let log = folder + "/errors.jsonl"
    let script = try Luahost.temporaryFile(
      """
      local outer = ui.root:add(ui.boundary{ id = 'outer' })
      local inner = outer:add(ui.boundary{ id = 'inner', on_error = function() return false end })
      local b = inner:add(ui.button{ id = 'b', on_tap = function() error('say "hi"\\n') end })
      b:tap() b:tap()
      """)
    let result = try Luahost.run(
      ["--error-log", log, "--plugins", Luahost.fixture("plugins"), script])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    let objects = try lines.map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    let broken = try #require(objects.first { $0["plugin"] as? String == "broken" })
    #expect(broken["view"] as? String == "root/plugins/broken")
    #expect((broken["message"] as? String)?.contains("broken plugin could not start") == true)
    let script_ = objects.filter { $0["view"] as? String == "root/outer/inner/b" }
    #expect(script_.count == 2, "both taps are logged, though the second only counts ×2")
    let first = try #require(script_.first)
    #expect(first["boundary"] as? String == "root/outer")
    #expect(first["handlers"] as? String == "inner declined · outer presented")
    #expect((first["message"] as? String)?.hasSuffix(": say \"hi\"\n") == true)
    #expect((first["location"] as? String)?.hasSuffix(":3") == true)
    #expect(first["plugin"] is NSNull)
    #expect(first["unhandled"] as? Bool == false)
    #expect((first["time"] as? String)?.hasPrefix("20") == true)
  }

  @Test func anUnwritableErrorLogIsAUsageError() throws {
    let result = try Luahost.run(["--error-log", "/nonexistent/dir/log", "-e", "print(1)"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("--error-log: cannot open /nonexistent/dir/log"))
  }

  /// A log that opens but cannot be written (a full disk) loses no error in silence: the
  /// first failed write is said at once, the count of lost entries at the end, and the run
  /// fails even when every error had a handler.
  @Test func anErrorLogWriteThatFailsIsSaidAndFailsTheRun() throws {
    try #require(FileManager.default.fileExists(atPath: "/dev/full"))
    let handled = """
      local b = ui.boundary{id = 'b', on_error = function() return true end}
      b:add(ui.button{id = 'go', on_tap = function() error('lost?') end})
      ui.root:add(b)
      b:find('go'):tap() b:find('go'):tap()
      """
    let result = try Luahost.run(["--error-log", "/dev/full", "-e", handled])
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        "luahost: --error-log: cannot write /dev/full: No space left on device;"
          + " later errors are not logged\n"), "\(result.stderr)")
    #expect(result.stderr.hasSuffix("luahost: --error-log: 2 errors were not logged\n"))
    let fine = try Luahost.run(["--error-log", "/dev/full", "-e", "print(1)"])
    #expect(fine.status == 0)
    #expect(fine.stderr == "")
  }
}
