import Foundation
import TestSupport
import Testing

/// `luahost test`, through the real binary.
@Suite(.timeLimit(.minutes(30))) struct TestCommandTests {
  var root: String {
    Luahost.fixtures.deletingLastPathComponent().deletingLastPathComponent().path
  }

  @Test func examplePluginTestsPass() throws {
    let result = try Luahost.run(
      ["test", "--plugins", "scripts/examples/plugins", "scripts/examples"], directory: root)
    #expect(result.status == 0)
    #expect(result.stdout.hasSuffix("\n12 passed, 0 failed\n"))
    #expect(
      result.stdout.contains(
        "  PASS counter going below zero alerts at the plugin's own boundary\n"))
  }

  @Test func failingErroringHangingAndBrokenFiles() throws {
    // NO_COLOR empty (colours allowed): a pipe alone must keep the output plain.
    let result = try Luahost.run(
      // The deadline ends the hanging test; the others must run to their end under it
      // however loaded the machine, so it is long.
      ["test", "--timeout", "10s", "Tests/Fixtures/testrunner"],
      environment: ["NO_COLOR": ""], directory: root)
    #expect(result.status == 1)
    let out = result.stdout
    #expect(out.hasSuffix("\n2 passed, 7 failed, 1 skipped\n"))
    #expect(
      out.contains(
        "  FAIL wrong message (Tests/Fixtures/testrunner/mixed_test.lua:4)\n       expected alert message to match \"something else\", got \"The Crash button crashed, as promised.\"\n"
      ))
    #expect(
      out.contains(
        "  FAIL no alert at all (Tests/Fixtures/testrunner/mixed_test.lua:8)\n       expected exactly one alert, got 0: no alert\n"
      ))
    #expect(
      out.contains(
        "  FAIL tables differ (Tests/Fixtures/testrunner/mixed_test.lua:12)\n       .b[2]: expected 4, got 3\n"
      ))
    #expect(
      out.contains(
        "  FAIL errors outside expectations (Tests/Fixtures/testrunner/mixed_test.lua:17)\n       error outside any expectation: Tests/Fixtures/testrunner/mixed_test.lua:17: attempt to index a nil value (local 't')\n"
      ))
    #expect(
      out.contains("  FAIL hangs (Tests/Fixtures/testrunner/mixed_test.lua:20)\n       timed out"))
    #expect(out.contains("  SKIP not yet\n"))
    #expect(out.contains("  PASS group passes too\n"))
    #expect(out.contains("  FAIL (syntax error) (Tests/Fixtures/testrunner/syntax_test.lua:2)\n"))
    #expect(
      out.contains(
        "  FAIL (error while loading) (Tests/Fixtures/testrunner/loaderror_test.lua:2)\n"))
    #expect(!out.contains("\u{1B}["))  // no colour without a terminal
  }

  @Test func machineReadableOutputAndFilters() throws {
    let tap = try Luahost.run(
      ["test", "--tap", "--filter", "pass", "Tests/Fixtures/testrunner/mixed_test.lua"],
      directory: root)
    #expect(tap.status == 0)
    #expect(
      tap.stdout
        == "TAP version 13\n1..2\nok 1 - passes\nok 2 - group passes too\n# 2 passed, 0 failed\n")
    let json = try Luahost.run(
      ["test", "--json", "--filter", "^tables", "Tests/Fixtures/testrunner/mixed_test.lua"],
      directory: root)
    #expect(json.status == 1)
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect(object?["failed"] as? Int == 1)
    let tests = object?["tests"] as? [[String: Any]]
    #expect(tests?.first?["name"] as? String == "tables differ")
    #expect(tests?.first?["line"] as? Int == 12)
  }

  /// With `--json` or `--tap`, stdout holds the report alone: what a test prints goes to
  /// stderr (it came first on stdout, and the JSON did not parse).
  @Test func machineReadableReportsKeepPrintsOffStdout() throws {
    let folder = try Luahost.temporaryFolder([
      "p_test.lua": "test('prints', function() print('noise from test') end)"
    ])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let json = try Luahost.run(["test", "--json", folder])
    #expect(json.status == 0)
    #expect(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) is [String: Any])
    #expect(json.stderr.contains("noise from test"))
    let tap = try Luahost.run(["test", "--tap", folder])
    #expect(tap.stdout.hasPrefix("TAP version 13\n"), "\(tap.stdout)")
    #expect(tap.stderr.contains("noise from test"))
    let text = try Luahost.run(["test", folder])
    #expect(text.stdout.contains("noise from test"))
  }

  /// A test whose name is not UTF-8 runs, named with escapes; it failed its whole file.
  @Test func aTestNamedInOtherBytesRuns() throws {
    let folder = try Luahost.temporaryFolder([
      "latin_test.lua": "test('first ok', function() end) test('caf\\233', function() end)"
    ])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try Luahost.run(["test", folder])
    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.stdout.contains("PASS caf\\233"), "\(result.stdout)")
    #expect(result.stdout.hasSuffix("2 passed, 0 failed\n"), "\(result.stdout)")
  }

  @Test func usageErrorsAndNoTests() throws {
    let bad = try Luahost.run(["test", "--frobnicate"])
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("unrecognized option '--frobnicate'"))
    let empty = FileManager.default.temporaryDirectory.appendingPathComponent(
      "luahost-empty-\(UUID())")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: empty) }
    let none = try Luahost.run(["test", empty.path])
    #expect(none.status == 1)
    #expect(none.stderr.contains("no *_test.lua files found"))
    #expect(none.stdout == "0 passed, 0 failed\n")
  }
}
