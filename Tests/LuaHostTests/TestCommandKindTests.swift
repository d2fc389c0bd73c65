import Foundation
import TestSupport
import Testing

/// A temporary folder of `*_test.lua` files for `luahost test`, removed when dropped.
final class TestFolder {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("luahost-tests-\(UUID())").path

  /// Creates the folder with `files` (relative path: source), making subfolders as needed.
  init(_ files: [String: String]) throws {
    for (name, source) in files {
      let file = URL(fileURLWithPath: path).appendingPathComponent(name)
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Luahost.temporaryFileContents(source, at: file.path)
    }
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// `luahost test`: the error kinds of `expect.error`, discovery, the default PATH and
/// `--allow`.
@Suite(.timeLimit(.minutes(30))) struct TestCommandKindTests {
  @Test func memorySwiftAndRuntimeKindsPass() throws {
    let folder = try TestFolder([
      "kinds_test.lua": """
      test("memory", function()
        expect.error(function()
          local t, i = {}, 0
          while true do i = i + 1 t[i] = {i} end
        end, "memory", { within = 30 })
      end)
      test("swift", function()
        -- the tree refuses an index past the end with a Swift error
        expect.error(function() local a = ui.stack{} a:add(ui.stack{}):add(a) end, "swift")
      end)
      test("runtime", function()
        expect.error(function() error("plain") end, "runtime")
      end)
      test("runtime with a table value", function()
        expect.error(function() error({code = 1}) end, "runtime")
      end)
      """
    ])
    let result = try Luahost.run(["test", "--memory", "8M", folder.path], timeout: 60)
    #expect(result.status == 0)
    #expect(
      result.stdout
        == "\(folder.path)/kinds_test.lua\n  PASS memory\n  PASS swift\n  PASS runtime\n  PASS runtime with a table value\n4 passed, 0 failed\n"
    )
  }

  @Test func aKindMismatchFailsNamingTheKindThatCame() throws {
    let folder = try TestFolder([
      "mismatch_test.lua": """
      test("runtime is not memory", function()
        expect.error(function() error("plain", 0) end, "memory")
      end)
      test("memory is not runtime", function()
        -- (a generous bound: the memory limit ends the loop in a few milliseconds)
        expect.error(function() local s = "x" while true do s = s .. s end end, "runtime",
          { within = 30 })
      end)
      test("swift is not runtime", function()
        expect.error(function() local a = ui.stack{} a:add(ui.stack{}):add(a) end, "runtime")
      end)
      test("returning is not an error", function()
        expect.error(function() end, "swift")
      end)
      """
    ])
    let result = try Luahost.run(["test", "--memory", "8M", folder.path], timeout: 60)
    #expect(result.status == 1)
    let out = result.stdout
    #expect(out.hasSuffix("\n0 passed, 4 failed\n"))
    #expect(out.contains("       expected a memory error, got runtime: plain\n"))
    #expect(out.contains("       expected a runtime error, got memory: not enough memory\n"))
    #expect(out.contains("       expected a runtime error, got swift: cannot move "))
    #expect(out.contains("       expected a swift error, but the function returned\n"))
  }

  @Test func discoveryRecursesIntoNestedFolders() throws {
    let folder = try TestFolder([
      "top_test.lua": "test('top', function() end)",
      "a/middle_test.lua": "test('middle', function() end)",
      "a/b/c/deep_test.lua": "test('deep', function() end)",
      "a/b/helper.lua": "error('not a test file')",
      "a/b/notes_test.txt": "not lua",
    ])
    let result = try Luahost.run(["test", folder.path])
    #expect(result.status == 0)
    let p = folder.path
    #expect(
      result.stdout
        == "\(p)/a/b/c/deep_test.lua\n  PASS deep\n\(p)/a/middle_test.lua\n  PASS middle\n\(p)/top_test.lua\n  PASS top\n3 passed, 0 failed\n"
    )
  }

  @Test func theCurrentFolderIsTheDefaultPath() throws {
    let folder = try TestFolder([
      "here_test.lua": "test('here', function() end)",
      "sub/there_test.lua": "test('there', function() expect.eq(1, 2) end)",
    ])
    let result = try Luahost.run(["test"], directory: folder.path)
    #expect(result.status == 1)
    #expect(
      result.stdout
        == "here_test.lua\n  PASS here\nsub/there_test.lua\n  FAIL there (sub/there_test.lua:1)\n       value: expected 2, got 1\n1 passed, 1 failed\n"
    )
    // An explicit "." is the same run.
    let dot = try Luahost.run(["test", "."], directory: folder.path)
    #expect(dot.stdout == result.stdout)
  }

  @Test func allowOsGrantsGetenvToTests() throws {
    let folder = try TestFolder([
      "env_test.lua": """
      test("getenv", function()
        expect.eq(type(os.getenv), "function")
        expect.eq(os.getenv("LUAHOST_TEST_PROBE"), "probe value")
      end)
      """
    ])
    let probe = ["LUAHOST_TEST_PROBE": "probe value"]
    let allowed = try Luahost.run(["test", "--allow", "os", folder.path], environment: probe)
    #expect(allowed.status == 0)
    #expect(allowed.stdout.hasSuffix("  PASS getenv\n1 passed, 0 failed\n"))
    let denied = try Luahost.run(["test", folder.path], environment: probe)
    #expect(denied.status == 1)
    #expect(denied.stdout.contains("expected \"function\", got \"nil\""))
  }
}

/// `expect.error(fn, "instructions")` with `luahost test --instructions`.
@Suite(.timeLimit(.minutes(30))) struct TestCommandBudgetTests {
  @Test func anInstructionBudgetCanBeExpected() throws {
    let folder = try Luahost.temporaryFile("").appending(".d")
    #expect(mkdir(folder, 0o755) == 0)
    try Luahost.temporaryFileContents(
      """
      test("runs out", function() expect.error(function() while true do end end, "instructions") end)
      test("the test goes on afterwards", function()
        expect.error(function() while true do end end, "instructions")
        local n = 0 for i = 1, 100 do n = n + 1 end
        expect.eq(n, 100)
      end)
      """, at: folder + "/budget_test.lua")
    let result = try Luahost.run(["test", "--instructions", "100000", folder])
    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.stdout.hasSuffix("2 passed, 0 failed\n"))
    // Without a budget the loop runs until the test's deadline: both tests fail.
    let without = try Luahost.run(["test", "--timeout", "300ms", folder])
    #expect(without.status == 1)
    #expect(without.stdout.hasSuffix("0 passed, 2 failed\n"), "\(without.stdout)")
  }
}
