import Foundation
import TestSupport
import Testing

/// The REPL on a pseudo-terminal: coloured results (not with `NO_COLOR` or `TERM=dumb`),
/// the 1,000-entry history cap, and a multi-line chunk as one history entry.
@Suite(.serialized, .timeLimit(.minutes(30))) struct TerminalReplColorHistoryTests {
  let state = FileManager.default.temporaryDirectory
    .appendingPathComponent("luahost-pty-history-\(UUID())").path
  var historyFile: String { state + "/luahost/history" }

  func start(_ environment: [String: String]) throws -> PseudoTerminal {
    var environment = environment
    environment["XDG_STATE_HOME"] = state
    let terminal = try PseudoTerminal(environment: environment)
    #expect(terminal.waitFor("> "))
    #expect(terminal.waitUntilReading())
    return terminal
  }

  /// Ends the session with Ctrl-D at the prompt and waits for the process to exit.
  func finish(_ terminal: PseudoTerminal) {
    #expect(terminal.waitUntilReading())
    terminal.type("\u{4}")
    #expect(terminal.exitStatus(timeout: 60) == 0)
  }

  /// The history file's entries (libedit's format: a header line, then one line each).
  func historyEntries() throws -> [String] {
    let text = try String(contentsOfFile: historyFile, encoding: .utf8)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.first == "_HiStOrY_V2_")
    return Array(lines.dropFirst())
  }

  /// Evaluates `{1, "s", true}` and returns the transcript from before it was typed.
  func evaluateTable(_ environment: [String: String]) throws -> Substring {
    let terminal = try start(environment)
    let mark = terminal.mark
    terminal.type("{1, 's', true}\r")
    #expect(terminal.waitFor("true", after: mark))
    #expect(terminal.waitFor("> ", after: mark))
    return terminal.transcript[mark...]
  }

  @Test func resultsAreColouredOnATerminal() throws {
    let output = try evaluateTable(["NO_COLOR": "", "TERM": "xterm"])
    #expect(
      output.contains(
        "{ \u{1B}[36m1\u{1B}[0m, \u{1B}[32m\"s\"\u{1B}[0m, \u{1B}[35mtrue\u{1B}[0m }"))
  }

  @Test func noColoursWithNoColor() throws {
    let output = try evaluateTable(["NO_COLOR": "1", "TERM": "xterm"])
    #expect(output.contains("{ 1, \"s\", true }"))
    #expect(!output.contains("\u{1B}[36m") && !output.contains("\u{1B}[32m"))
  }

  @Test func noColoursOnADumbTerminal() throws {
    let output = try evaluateTable(["NO_COLOR": "", "TERM": "dumb"])
    #expect(output.contains("{ 1, \"s\", true }"))
    #expect(!output.contains("\u{1B}[36m") && !output.contains("\u{1B}[32m"))
  }

  @Test func historyIsCappedAtOneThousandEntries() throws {
    try FileManager.default.createDirectory(
      atPath: state + "/luahost", withIntermediateDirectories: true)
    let old = (1...1100).map { "n=\($0)" }
    try Luahost.temporaryFileContents(
      (["_HiStOrY_V2_"] + old).joined(separator: "\n") + "\n", at: historyFile)
    let terminal = try start(["NO_COLOR": "1"])
    let mark = terminal.mark
    terminal.type("print('newest' .. '!')\r")
    #expect(terminal.waitFor("newest!\r\n", after: mark))
    finish(terminal)
    let entries = try historyEntries()
    #expect(entries.count == 1000)
    #expect(entries.last == "print('newest'\\040..\\040'!')")
    #expect(entries.first == "n=102")
    #expect(entries.dropLast().last == "n=1100")
  }

  @Test func aMultiLineChunkIsOneHistoryEntry() throws {
    do {
      let terminal = try start(["NO_COLOR": "1"])
      var mark = terminal.mark
      terminal.type("function twice(x)\r")
      #expect(terminal.waitFor(">> ", after: mark))
      #expect(terminal.waitUntilReading())
      mark = terminal.mark
      terminal.type("return x * 2\r")
      #expect(terminal.waitFor(">> ", after: mark))
      #expect(terminal.waitUntilReading())
      mark = terminal.mark
      terminal.type("end\r")
      #expect(terminal.waitFor("> ", after: mark))
      mark = terminal.mark
      terminal.type("twice(21)\r")
      #expect(terminal.waitFor("42", after: mark))
      finish(terminal)
    }
    let entries = try historyEntries()
    #expect(entries.count == 2)
    #expect(entries.first == "function\\040twice(x)\\012return\\040x\\040*\\0402\\012end")
    #expect(entries.last == "twice(21)")
  }
}
