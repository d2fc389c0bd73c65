import CSystem
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs `luahost` on a pseudo-terminal, as a user at a keyboard would: the child gets a
/// new session with the terminal as its controlling terminal, so Ctrl-C (`\u{3}`) raises
/// SIGINT through the line discipline.
public final class PseudoTerminal {
  let master: Int32
  let pid: pid_t
  /// Everything read from the terminal so far.
  public private(set) var transcript = ""
  /// The bytes of a character that one read split, kept for the next read to complete.
  var unfinished: [UInt8] = []

  /// Starts `luahost` with `arguments` and `environment` added to the current one.
  public init(arguments: [String] = [], environment: [String: String] = [:]) throws {
    var name = [CChar](repeating: 0, count: 256)
    master = cs_open_pty(&name, name.count)
    guard master >= 0 else { throw POSIXError(.EIO) }
    let slavePath = String(
      decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var size = winsize(ws_row: 40, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addclose(&actions, master)
    posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
    posix_spawn_file_actions_adddup2(&actions, 0, 1)
    posix_spawn_file_actions_adddup2(&actions, 0, 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, cs_spawn_session_flags())
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var interrupt = sigset_t()
    sigemptyset(&interrupt)
    sigaddset(&interrupt, SIGINT)
    posix_spawnattr_setsigdefault(&attributes, &interrupt)
    var env = ProcessInfo.processInfo.environment
    env["TERM"] = "xterm"
    env["LUA_INIT"] = nil
    for (key, value) in environment { env[key] = value }
    let argv = ([Luahost.executable.path] + arguments).map { strdup($0) } + [nil]
    let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    var child: pid_t = 0
    let status = posix_spawn(&child, Luahost.executable.path, &actions, &attributes, argv, envp)
    guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
    pid = child
  }

  deinit {
    kill(pid, SIGKILL)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    close(master)
  }

  /// Types `text` (use `\r` for Enter, `\t` for Tab, `\u{3}` for Ctrl-C, `\u{4}` for Ctrl-D).
  public func type(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  }

  /// Reads until the transcript (since `start`) contains `text`, or `timeout` passes.
  @discardableResult
  public func waitFor(_ text: String, after start: String.Index? = nil, timeout: Double = 30)
    -> Bool
  {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if transcript[(start ?? transcript.startIndex)...].contains(text) { return true }
      var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      if poll(&descriptor, 1, 100) > 0 {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(master, &buffer, buffer.count)
        if count <= 0 { break }
        unfinished += buffer[..<count]
        let whole = Self.wholeCharacters(unfinished)
        transcript += String(decoding: unfinished[..<whole], as: UTF8.self)
        unfinished.removeFirst(whole)
      }
    }
    return transcript[(start ?? transcript.startIndex)...].contains(text)
  }

  /// How many of `bytes` come before a UTF-8 sequence they end in the middle of (all of
  /// them when none is cut short), so a read that splits a character does not decode it as
  /// two replacement characters.
  static func wholeCharacters(_ bytes: [UInt8]) -> Int {
    var continuations = 0
    for index in bytes.indices.reversed().prefix(4) {
      let byte = bytes[index]
      if byte & 0xC0 == 0x80 {
        continuations += 1
        continue
      }
      let length = byte < 0xC0 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
      return continuations + 1 >= length ? bytes.count : index
    }
    return bytes.count
  }

  /// Waits until the line editor reads keys itself (the terminal out of canonical mode),
  /// which it does only while it waits at a prompt: a key typed before then is handled
  /// by the terminal's own line discipline (a Ctrl-D there is not the editor's Ctrl-D).
  @discardableResult
  public func waitUntilReading(timeout: Double = 30) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    var settings = termios()
    while Date() < deadline {
      if tcgetattr(master, &settings) == 0, settings.c_lflag & tcflag_t(ICANON) == 0 { return true }
      _ = waitFor("\u{0}", timeout: 0.01)  // keep draining output meanwhile
    }
    return false
  }

  /// A mark in the transcript, to wait for output that comes after it.
  public var mark: String.Index { transcript.endIndex }

  /// The process on the terminal, for a test that signals it.
  public var processIdentifier: pid_t { pid }

  /// Whether the terminal echoes and edits lines itself (its settings when no line editor
  /// reads it).
  public var isCooked: Bool {
    var settings = termios()
    guard tcgetattr(master, &settings) == 0 else { return false }
    let wanted = tcflag_t(ICANON) | tcflag_t(ECHO)
    return settings.c_lflag & wanted == wanted
  }

  /// Waits for the process to exit and returns its status (nil if it is still running).
  public func exitStatus(timeout: Double = 10) -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    var status: Int32 = 0
    while Date() < deadline {
      _ = waitFor("\u{0}", timeout: 0.05)  // keep draining output
      if waitpid(pid, &status, WNOHANG) == pid {
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
      }
    }
    return nil
  }
}
