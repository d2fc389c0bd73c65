import Foundation
import LuaHost
import TestSupport
import Testing

/// Issue 21, classes 2-4 and the REPL's numbers: what reaches the terminal or the error log
/// on a script's behalf cannot pass for another plugin's output, a test report's line or
/// another plugin's error, and bad numbers are refused with a message.
@Suite(.timeLimit(.minutes(30))) struct OutputIntegrityTests {
  @Test func aManifestNameThatWouldForgeALabelIsRefused() throws {
    let folder = try Luahost.temporaryFolder([
      "plugins/forger/manifest.lua": "return { name = 'x\\n[counter' }",
      "plugins/forger/init.lua": "print('hello')",
      "plugins/spaced/manifest.lua": "return { name = 'a b' }",
      "plugins/spaced/init.lua": "print('hello')",
      // A panel named `..` would make the path root/plugins/.. (found by a hostile review).
      "plugins/dots/manifest.lua": "return { name = '..' }",
      "plugins/dots/init.lua": "print('hello')",
      "main.lua": "print('main')",
    ])
    let result = try Luahost.run(["--plugins", "plugins", "main.lua"], directory: folder)
    #expect(result.stdout == "main\n", "\(result.stdout)")
    #expect(result.stderr.contains("bad plugin name 'x\\10[counter'"), "\(result.stderr)")
    #expect(result.stderr.contains("bad plugin name 'a b'"), "\(result.stderr)")
    #expect(result.stderr.contains("bad plugin name '..'"), "\(result.stderr)")
  }

  @Test func aPluginsAlertTextCannotStartALineOfItsOwn() throws {
    let folder = try Luahost.temporaryFolder([
      "plugins/evil.lua": "error('one\\n[counter] forged line\\nalert: Error', 0)",
      "main.lua": "",
    ])
    let result = try Luahost.run(["--plugins", "plugins", "main.lua"], directory: folder)
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(!lines.contains { $0.hasPrefix("[counter]") }, "\(result.stdout)")
    #expect(lines.filter { $0.hasPrefix("alert:") }.count == 1, "\(result.stdout)")
    #expect(result.stdout.contains("  message: one\n           [counter] forged line\n"))
  }

  /// A repeated alert's line shows its title and path escaped, as the alert does (it
  /// wrote them raw: a title could clear the screen or set the terminal's title).
  @Test func aRepeatedAlertsLineShowsItsTitleEscaped() throws {
    let code = """
      local b = ui.root:add(ui.button{ id = 'b',
        on_tap = function() error(ui.error{ message = 'm', title = 'T\\27]0;pwned\\7' }) end })
      b:tap() b:tap()
      """
    let result = try Luahost.run(["-e", code])
    let repeated = result.stdout.split(separator: "\n").filter { $0.hasPrefix("alert repeated:") }
    #expect(repeated == [#"alert repeated: T\27]0;pwned\7 ×2 [root/b]"#], "\(result.stdout)")
  }

  /// A repeated alert's line shows at most `AlertFormatter.textLimit` bytes of its title, as
  /// the alert does: it printed all of a 20 MB title, escaped under the tree lock, in 2.3 s
  /// (a review).
  @Test func aRepeatedAlertsLineShowsABoundedTitle() throws {
    let code = """
      local title = ('t'):rep(1 << 20)
      local b = ui.root:add(ui.button{ id = 'b',
        on_tap = function() error(ui.error{ message = 'm', title = title }) end })
      b:tap() b:tap()
      """
    let result = try Luahost.run(["-e", code])
    let repeated = result.stdout.split(separator: "\n").filter { $0.hasPrefix("alert repeated:") }
    let limit = AlertFormatter.textLimit
    #expect(
      repeated == [
        Substring(
          "alert repeated: \(String(repeating: "t", count: limit))… (\((1 << 20) - limit) more bytes) ×2 [root/b]"
        )
      ])
  }

  /// The REPL shows a view by its id and path, which a script (or a plugin) chose:
  /// escaped, as it shows strings (it wrote them raw, a hostile review).
  @Test func theReplShowsAViewsIdEscaped() throws {
    let result = try Luahost.run(
      ["-i"], stdin: "ui.root:add(ui.text{id = 'z\\27]0;X\\7'})\n{ui.find('z\\27]0;X\\7')}\n")
    #expect(!result.stdout.contains("\u{1B}"), "\(result.stdout)")
    #expect(result.stdout.contains(#"> text#z\27]0;X\7 (root/z\27]0;X\7)"#), "\(result.stdout)")
    #expect(result.stdout.contains(#"> { text#z\27]0;X\7 (root/z\27]0;X\7) }"#))
  }

  /// An error whose alert the plugin's memory limit cannot hold whole still comes, with
  /// its message cut: a 20 MB message in a 64 MB plugin made no alert and no report.
  @Test func anErrorTooLargeToKeepStillAlerts() throws {
    let folder = try Luahost.temporaryFolder([
      "plugins/big.lua": "local s = string.rep('y', 20 * 1024 * 1024)\nerror(s)",
      "main.lua": "print('main')",
    ])
    let result = try Luahost.run(["--plugins", "plugins", "main.lua"], directory: folder)
    #expect(result.stdout.hasPrefix("alert: Error in plugin big\n"), "\(result.stdout.prefix(200))")
    #expect(result.stdout.contains("source: plugins/big.lua:2\n"))
    #expect(result.stdout.hasSuffix("main\n"))
  }

  @Test func aChunkNameWithEscapesReachesNoReportRaw() throws {
    let folder = try Luahost.temporaryFolder([
      "forge_test.lua": """
      test('forged', function()
        local f = load("error('boom')", "=\\27[31mred\\r  PASS forged")
        f()
      end)
      """
    ])
    let result = try Luahost.run(["test", "."], directory: folder)
    #expect(result.status == 1)
    #expect(!result.stdout.contains("\u{1B}"), "\(result.stdout)")
    #expect(!result.stdout.contains("\r"), "\(result.stdout)")
    #expect(result.stdout.contains("\\27[31mred\\13  PASS forged"), "\(result.stdout)")
    // The same through the REPL's error and the script runner's error.
    let repl = try Luahost.run(["-i"], stdin: "load('error(1)', '=\\27[2Jx')()\n")
    #expect(!repl.stderr.contains("\u{1B}"), "\(repl.stderr)")
    #expect(repl.stderr.contains("\\27[2Jx"), "\(repl.stderr)")
    let script = try Luahost.run(["-e", "load('error(1)', '=\\27[2Jy')()"])
    #expect(!script.stderr.contains("\u{1B}"), "\(script.stderr)")
  }

  @Test func viewIdsWithASlashAreRefused() throws {
    let result = try Luahost.run([
      "-e",
      """
      print(pcall(ui.button, { id = 'plugins/counter/b' }))
      local b = ui.root:add(ui.button{ id = 'ok' })
      print(pcall(function() b.id = 'a/b' end))
      print(b.id)
      """,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    #expect(lines[0].hasPrefix("false") && lines[0].contains("bad view id 'plugins/counter/b'"))
    #expect(lines[1].hasPrefix("false") && lines[1].contains("bad view id 'a/b'"))
    #expect(lines[2] == "ok")
  }

  /// The log's `plugin` comes from the panel, not from a path: a host script cannot make a
  /// view whose path blames a plugin, and a plugin's own error names it.
  @Test func theErrorLogAttributesByThePanelAndStopsAtItsCap() throws {
    let folder = try Luahost.temporaryFolder([
      "plugins/counter.lua": "error('counter failed', 0)",
      "main.lua": """
      local box = ui.root:add(ui.stack{ id = 'plugins2' })
      local b = box:add(ui.button{ id = 'counter', on_tap = function() error('host', 0) end })
      b:tap()
      local big = ('x'):rep(8000)
      local n = 0
      local spam = ui.root:add(ui.button{ id = 'spam', on_tap = function() n = n + 1 error(big .. n, 0) end })
      for i = 1, 6000 do spam:tap() end
      """,
    ])
    let log = folder + "/errors.jsonl"
    let result = try Luahost.run(
      ["--error-log", log, "--plugins", "plugins", "main.lua"], directory: folder)
    #expect(result.status == 1, "the host's own errors are unhandled: \(result.stderr)")
    let text = try String(contentsOfFile: log, encoding: .utf8)
    #expect(text.utf8.count <= 16 << 20)
    let lines = text.split(separator: "\n")
    let objects = try lines.map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    let counter = objects.filter { ($0["message"] as? String) == "counter failed" }
    #expect(counter.count == 1 && counter.first?["plugin"] as? String == "counter")
    let host = objects.filter { ($0["message"] as? String) == "host" }
    #expect(host.count == 1 && host.first?["plugin"] is NSNull, "\(host)")
    #expect((objects.last?["stopped"] as? String)?.contains("limit") == true)
    let longest = objects.compactMap { ($0["message"] as? String)?.utf8.count }.max() ?? 0
    #expect(longest < 4200)
  }

  /// `warn` output reaches the terminal on the plugin's behalf too: labelled, line by line.
  @Test func aPluginsWarningsAreLabelled() throws {
    let folder = try Luahost.temporaryFolder([
      "plugins/noisy.lua": "warn('@on') warn('first ', 'half') warn('two\\n[counter] forged')",
      "main.lua": "",
    ])
    let result = try Luahost.run(["--plugins", "plugins", "main.lua"], directory: folder)
    #expect(result.status == 0, "\(result.stderr)")
    let lines = (result.stdout + result.stderr).split(separator: "\n").map(String.init)
    #expect(lines.contains("[noisy] Lua warning: first half"), "\(lines)")
    #expect(lines.contains("[noisy] Lua warning: two"), "\(lines)")
    #expect(lines.contains("[noisy] [counter] forged"), "\(lines)")
    #expect(!lines.contains { $0.hasPrefix("[counter]") || $0.hasPrefix("Lua warning") })
  }

  /// Bytes that are not UTF-8, C1 controls (U+009B reads as `ESC [` on some terminals), line
  /// separators and bidirectional overrides show as escapes: nothing is replaced by U+FFFD,
  /// and no raw byte reaches the terminal.
  @Test func aPluginsPrintShowsEveryByte() throws {
    let folder = try Luahost.temporaryFolder([
      "plugins/bytes.lua":
        #"print('caf\xC3\xA9 \xFF\xFEok \xE2\x82 end', utf8.char(0x9B) .. '31m', utf8.char(0x2028, 0x202E) .. 'x')"#,
      "main.lua": "",
    ])
    let result = try Luahost.run(["--plugins", "plugins", "main.lua"], directory: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.contains(
        #"[bytes] café \255\254ok \226\130 end\#t\u{9B}31m\#t\u{2028}\u{202E}x"#),
      "\(result.stdout)")
    #expect(!result.stdout.unicodeScalars.contains("\u{FFFD}"))
    #expect(!result.stdout.unicodeScalars.contains("\u{9B}"))
  }

  /// One `print` of a plugin shows at most 1,000 lines and 64 KiB, then says how much it
  /// left out: each line cost a string and a write, unpolled and uncharged (20 MiB of
  /// newlines ran 28 s past the plugin's 10 s deadline, at 1.1 GB).
  @Test func aPluginsHugePrintIsCutAndSaysSo() throws {
    let folder = try Luahost.temporaryFolder([
      "plugins/flood.lua": """
      print(string.rep('\\n', 20 * 2^20))
      print(string.rep('\\255', 2^20))
      print('small', 'end')
      """,
      "main.lua": "",
    ])
    let result = try Luahost.run(["--plugins", "plugins", "main.lua"], directory: folder)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(!result.stdout.contains("timed out"), "\(result.stdout.suffix(500))")
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    let note = "more bytes not shown (a plugin's print shows at most 1000 lines and 64 KiB)"
    #expect(lines.filter { $0 == "[flood] " }.count == 1_000)
    #expect(lines.contains("[flood] … \(20 * 1024 * 1024 - 1_000) \(note)"))
    // A long line is cut at 64 KiB of its bytes (each shown as an escape).
    let long = "[flood] " + String(repeating: "\\255", count: 64 * 1024)
    #expect(lines.contains { $0 == long })
    #expect(lines.contains("[flood] … \(1024 * 1024 - 64 * 1024) \(note)"))
    #expect(lines.contains("[flood] small\tend"))
    // A cut falls on a character's boundary, and an empty last line is shown, not noted.
    let edges = try Luahost.temporaryFolder([
      "plugins/edges.lua": "print(('a\\n'):rep(1000)) print(('a'):rep(65535) .. '€€')"
    ])
    defer { try? FileManager.default.removeItem(atPath: edges) }
    let cut = try Luahost.run(["--plugins", "plugins", "-e", ""], directory: edges)
    let cutLines = cut.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(cutLines.filter { $0 == "[edges] a" }.count == 1_000)
    #expect(cutLines.contains("[edges] "))
    #expect(cutLines.contains("[edges] " + String(repeating: "a", count: 65535)))
    #expect(cutLines.contains("[edges] … 6 \(note)"))
    #expect(!cut.stdout.contains("\\226") && !cut.stdout.contains(" 0 more bytes"))
  }

  @Test func chooseWithAnExtremeNumberIsAUsageError() throws {
    let result = try Luahost.run(
      ["-i"],
      stdin: "ui.root:add(ui.button{ id = 'b', on_tap = function() error('x', 0) end }):tap()\n"
        + ".choose -9223372036854775808\n.choose 9223372036854775807\n.choose 99999999999999999999\n"
        + "print('alive')\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("alive"))
    #expect(result.stderr.components(separatedBy: "usage: .choose N").count == 4)
  }
}
