import Foundation
import TestSupport
import Testing

/// busted specs (`*_spec.lua`) through `luahost test`, with Debian's busted and luassert
/// (packages lua-busted and lua-luassert, which `scripts/setup` installs).
@Suite(.timeLimit(.minutes(30))) struct BustedSpecTests {
  var root: String {
    Luahost.fixtures.deletingLastPathComponent().deletingLastPathComponent().path
  }

  /// busted's summary line, without the time: `5 successes / 2 failures / 1 error / 2 pending`.
  func counts(_ output: String) -> String? {
    output.split(separator: "\n").first { $0.contains(" / ") && $0.contains(" pending") }
      .map { String($0.prefix { $0 != ":" }).trimmingCharacters(in: .whitespaces) }
  }

  @Test func passingFailingPendingAndSpies() throws {
    let result = try Luahost.run(
      ["test", "Tests/Fixtures/busted/plain/basics_spec.lua"], directory: root)
    #expect(result.status == 1)
    #expect(counts(result.stdout) == "4 successes / 2 failures / 1 error / 1 pending")
    #expect(result.stdout.contains("a stack fails on purpose"))
    #expect(result.stdout.contains("basics_spec.lua:28: boom"))
    #expect(!result.stdout.contains("spies record calls"))  // spies pass
  }

  @Test func specTapsAPluginsButtonAndAssertsTheAlertAtItsPanel() throws {
    let result = try Luahost.run(
      ["test", "Tests/Fixtures/busted/plugin/counter_spec.lua"], directory: root)
    #expect(result.status == 1)
    #expect(counts(result.stdout) == "4 successes / 1 failure / 0 errors / 0 pending")
    // The one failure is the spec that expects the alert at the wrong boundary.
    #expect(result.stdout.contains("the counter plugin fails when the alert is elsewhere"))
    #expect(
      result.stdout.contains(
        "Expected an alert at boundary (string) 'storage' matching (nil), got: (string) 'Error in plugin counter:"
      ))
    #expect(result.stdout.contains("at boundary counter'"))
  }

  @Test func specWaitsForAPluginsTimer() throws {
    let result = try Luahost.run(
      ["test", "Tests/Fixtures/busted/plugin/delayed_spec.lua"], directory: root)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(counts(result.stdout) == "2 successes / 0 failures / 0 errors / 0 pending")
  }

  @Test func junitOutput() throws {
    let result = try Luahost.run(
      ["test", "--output", "junit", "Tests/Fixtures/busted/plugin/counter_spec.lua"],
      directory: root)
    #expect(result.status == 1)
    let xml = result.stdout
    #expect(xml.contains("<testsuites "))
    #expect(xml.components(separatedBy: "<testcase ").count - 1 == 5)
    #expect(xml.components(separatedBy: "<failure").count - 1 == 1)
    #expect(xml.contains("tests='5'") && xml.contains("failures='1'"))
    #expect(xml.contains("name='the counter plugin stops storage errors at the storage boundary'"))
    #expect(xml.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("</testsuites>"))
  }

  @Test func tapOutput() throws {
    let result = try Luahost.run(
      ["test", "--output", "tap", "Tests/Fixtures/busted/plugin/counter_spec.lua"],
      directory: root)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains("ok 1 - the counter plugin increments without alerts"))
    #expect(lines.contains("not ok 4 - the counter plugin fails when the alert is elsewhere"))
    #expect(lines.contains("1..5"))
    #expect(lines.filter { $0.hasPrefix("ok ") }.count == 4)
  }

  @Test func jsonOutputThroughBustedsOwnFlag() throws {
    let result = try Luahost.run(
      ["test", "-o", "json", "Tests/Fixtures/busted/plain/basics_spec.lua"], directory: root)
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    let report = try #require(object as? [String: Any])
    #expect((report["successes"] as? [Any])?.count == 4)
    #expect((report["failures"] as? [Any])?.count == 2)
    #expect((report["errors"] as? [Any])?.count == 1)
    #expect((report["pendings"] as? [Any])?.count == 1)
  }

  @Test func sameCountsAsRealBusted() throws {
    let folder = "Tests/Fixtures/busted/plain"
    let busted = try Luahost.run(
      ["lua5.4", "/usr/bin/busted", "-o", "plainTerminal", folder], directory: root,
      program: URL(fileURLWithPath: "/usr/bin/env"))
    let luahost = try Luahost.run(["test", "-o", "plainTerminal", folder], directory: root)
    let expected = "5 successes / 2 failures / 1 error / 2 pending"
    #expect(counts(busted.stdout) == expected, "\(busted.stdout)\(busted.stderr)")
    #expect(counts(luahost.stdout) == expected, "\(luahost.stdout)\(luahost.stderr)")
    #expect(busted.status == 1 && luahost.status == 1)
  }

  @Test func testFilesStillPassBesideSpecs() throws {
    let folder = try Luahost.temporaryFolder([
      "math_test.lua": "test('adds', function() expect.eq(1 + 1, 2) end)\n",
      "math_spec.lua":
        "describe('m', function() it('adds', function() assert.equal(2, 1 + 1) end) end)\n",
    ])
    let result = try Luahost.run(["test", folder], directory: root)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("  PASS adds\n"))
    #expect(result.stdout.contains("1 passed, 0 failed\n"))
    #expect(counts(result.stdout) == "1 success / 0 failures / 0 errors / 0 pending")
  }
}
