import Foundation
import TestSupport
import Testing

/// Issue 22, part 5: `luahost test` takes every limit flag as `luahost` does, and says when
/// a plugin under test could not load.
@Suite(.timeLimit(.minutes(30))) struct TestCommandLimitTests {
  /// 96 MiB is past the default 64 MiB limit: only `--memory none` lets it through.
  static let big = """
    test('allocates 96 MiB', function()
      local s = ('x'):rep(96 << 20)
      assert(#s == 96 << 20)
    end)
    """

  @Test func memoryNoneLiftsTheLimit() throws {
    let folder = try Luahost.temporaryFolder(["big_test.lua": Self.big])
    let limited = try Luahost.run(["test", "."], directory: folder)
    #expect(limited.status == 1, "the default limit must refuse 96 MiB: \(limited.stdout)")
    let unlimited = try Luahost.run(["test", "--memory", "none", "."], directory: folder)
    #expect(unlimited.status == 0, "\(unlimited.stdout)\(unlimited.stderr)")
    #expect(unlimited.stdout.contains("1 passed"))
  }

  /// A run keeps each failure's message and detail, cut at `TestResult.textLimit`: ten
  /// tests failing with 12 MB messages took 1.5 GB under a 32 MB limit, and printed all of
  /// it (a hostile review).
  @Test func aFailuresMessageIsKeptCut() throws {
    let folder = try Luahost.temporaryFolder([
      "big_test.lua": """
      for i = 1, 10 do test('big ' .. i, function() error(('x'):rep(4 << 20), 0) end) end
      """
    ])
    let result = try Luahost.run(["test", "--memory", "32M", "."], directory: folder)
    #expect(result.status == 1)
    #expect(result.stdout.contains("10 failed"), "\(result.stdout.suffix(300))")
    #expect(result.stdout.components(separatedBy: "more bytes)").count - 1 == 10)
    #expect(result.stdout.utf8.count < 2 << 20, "\(result.stdout.utf8.count) bytes")
  }

  @Test func aPluginThatCannotLoadIsReportedOnce() throws {
    let folder = try Luahost.temporaryFolder([
      "plugins/broken/manifest.lua": "return { name = 'broken', capabilities = { 'nope' } }",
      "plugins/broken/init.lua": "",
      "one_test.lua": "test('a', function() end) test('b', function() end)",
    ])
    let result = try Luahost.run(["test", "--plugins", "plugins", "."], directory: folder)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    let reports = result.stderr.components(separatedBy: "a plugin was not loaded").count - 1
    #expect(reports == 1, "\(result.stderr)")
    #expect(result.stderr.contains("unknown capability 'nope'"), "\(result.stderr)")
  }
}
