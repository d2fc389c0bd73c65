import Foundation
import TestSupport
import Testing

/// `luahost test` colours its report only on a terminal, and not with `NO_COLOR` or
/// `TERM=dumb`.
@Suite(.serialized, .timeLimit(.minutes(30))) struct TestCommandColorTests {
  static let files = [
    "colors_test.lua": """
    test("passes", function() end)
    test("fails", function() expect.eq(1, 2) end)
    test.skip("skipped", function() end)
    """
  ]

  /// Runs `luahost test` on `folder` on a pseudo-terminal and returns the transcript once
  /// the process has exited with status 1 (one test fails).
  func runOnTerminal(_ folder: TestFolder, environment: [String: String]) throws -> String {
    let terminal = try PseudoTerminal(arguments: ["test", folder.path], environment: environment)
    #expect(terminal.waitFor("1 passed, 1 failed, 1 skipped"))
    #expect(terminal.exitStatus(timeout: 60) == 1)
    return terminal.transcript
  }

  @Test func coloursOnATerminal() throws {
    let folder = try TestFolder(Self.files)
    let transcript = try runOnTerminal(folder, environment: ["NO_COLOR": "", "TERM": "xterm"])
    #expect(transcript.contains("  \u{1B}[32mPASS\u{1B}[0m passes"))
    #expect(transcript.contains("  \u{1B}[31mFAIL\u{1B}[0m fails ("))
    #expect(transcript.contains("  \u{1B}[33mSKIP\u{1B}[0m skipped"))
  }

  @Test func noColoursWithNoColor() throws {
    let folder = try TestFolder(Self.files)
    let transcript = try runOnTerminal(folder, environment: ["NO_COLOR": "1", "TERM": "xterm"])
    #expect(transcript.contains("  PASS passes"))
    #expect(transcript.contains("  FAIL fails ("))
    #expect(!transcript.contains("\u{1B}["))
  }

  @Test func noColoursOnADumbTerminal() throws {
    let folder = try TestFolder(Self.files)
    let transcript = try runOnTerminal(folder, environment: ["NO_COLOR": "", "TERM": "dumb"])
    #expect(transcript.contains("  PASS passes"))
    #expect(transcript.contains("  FAIL fails ("))
    #expect(!transcript.contains("\u{1B}["))
  }

  @Test func noColoursThroughAPipe() throws {
    let folder = try TestFolder(Self.files)
    let result = try Luahost.run(
      ["test", folder.path], environment: ["NO_COLOR": "", "TERM": "xterm"])
    #expect(result.status == 1)
    #expect(result.stdout.contains("  PASS passes\n"))
    #expect(result.stdout.hasSuffix("\n1 passed, 1 failed, 1 skipped\n"))
    #expect(!result.stdout.contains("\u{1B}["))
  }
}
