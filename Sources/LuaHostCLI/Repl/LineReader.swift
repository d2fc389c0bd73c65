import CEdit
import CSystem
import LuaHost

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the REPL reads lines from: libedit on a terminal, plain stdin otherwise.
protocol LineReader {
  /// Shows `prompt` and reads a line; nil at end of input. `interrupted` is true when
  /// Ctrl-C ended the line (it is then to be dropped).
  mutating func readLine(prompt: String) -> (line: [UInt8], interrupted: Bool)?
  /// Records a finished entry in the history.
  mutating func remember(_ entry: [UInt8])
  /// Saves the history.
  func save()
}

/// Reads stdin without editing: for pipes and transcripts. With `echo`, each line read is
/// written after its prompt, as `lua` built with readline does when reading a pipe.
struct PlainLineReader: LineReader {
  var echo = false

  mutating func readLine(prompt: String) -> (line: [UInt8], interrupted: Bool)? {
    StandardStreams.out(prompt)
    StandardStreams.flush()
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(line) }
    let count = getline(&line, &capacity, cs_stdin())
    if count < 0 && errno == EINTR {
      // Ctrl-C at the prompt (the REPL's handler is installed, so the read was cut short):
      // the process ends of it, as `lua -i`'s does, with no line editor to clear a line.
      signal(SIGINT, SIG_DFL)
      raise(SIGINT)
    }
    guard count >= 0, let line else { return nil }
    var bytes = UnsafeRawBufferPointer(start: line, count: count).map { $0 }
    if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
    if echo { StandardStreams.out(String(decoding: bytes, as: UTF8.self) + "\n") }
    return (bytes, false)
  }
  mutating func remember(_ entry: [UInt8]) {}
  func save() {}
}

// `nonisolated(unsafe)`: libedit's completion callback is a C function pointer with no
// context argument, so it finds the completer through these globals. They are written and
// read only on the REPL's thread: the reader sets them, and libedit calls back from inside
// `readline` on the same thread.

/// The completer the libedit callback uses; set while an editing reader exists.
nonisolated(unsafe) private var activeCompleter: Completer?
/// Matches computed for the current completion request.
nonisolated(unsafe) private var activeMatches: [String] = []

/// libedit with history (a file under `$XDG_STATE_HOME/luahost`, capped) and completion.
struct EditingLineReader: LineReader {
  static let historyLimit: Int32 = 1000
  let historyPath: String?

  init(completer: Completer, environment: [String: String]) {
    activeCompleter = completer
    historyPath = Self.historyPath(environment)
    // Before the line editor changes them: a SIGTERM or SIGHUP at the prompt left the
    // terminal without echo (lua's readline puts it back).
    cs_restore_terminal_on_signals()
    cs_setup_editline { text, state in
      let prefix = text.map { String(cString: $0) } ?? ""
      if state == 0 { activeMatches = activeCompleter?.completions(for: prefix) ?? [] }
      let index = Int(state)
      guard index < activeMatches.count else { return nil }
      return strdup(activeMatches[index])
    }
    using_history()
    stifle_history(Self.historyLimit)
    if let historyPath { _ = read_history(historyPath) }
  }

  /// Points completion at a new state (after `.reset`).
  func use(_ completer: Completer) { activeCompleter = completer }

  static func historyPath(_ environment: [String: String]) -> String? {
    let base: String
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      base = state
    } else if let home = environment["HOME"] {
      base = home + "/.local/state"
    } else {
      return nil
    }
    var path = ""
    for component in (base + "/luahost").split(separator: "/") {
      path += "/" + component
      mkdir(path, 0o700)
    }
    return path + "/history"
  }

  mutating func readLine(prompt: String) -> (line: [UInt8], interrupted: Bool)? {
    cs_forget_interrupts()
    guard let raw = readline(prompt) else { return nil }
    defer { free(raw) }
    let bytes = UnsafeRawBufferPointer(start: raw, count: strlen(raw)).map { $0 }
    return (bytes, cs_take_prompt_interrupt() != 0)
  }

  mutating func remember(_ entry: [UInt8]) {
    guard !entry.isEmpty else { return }
    _ = (entry + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { add_history($0.baseAddress) }
    }
  }

  func save() {
    if let historyPath { _ = write_history(historyPath) }
  }
}
