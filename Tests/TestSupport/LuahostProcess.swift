import Foundation

/// What a run of the real `luahost` binary produced.
public struct ProcessResult: Sendable {
  /// The exit status.
  public var status: Int32
  /// Everything written to stdout.
  public var stdout: String
  /// Everything written to stderr.
  public var stderr: String
}

/// Runs the `luahost` binary built next to the test bundle, through pipes.
public enum Luahost {
  /// The built executable.
  public static var executable: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("luahost")
  }

  /// The repository's `Tests/Fixtures` folder.
  public static var fixtures: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures")
  }

  /// A fixture's path.
  public static func fixture(_ name: String) -> String {
    fixtures.appendingPathComponent(name).path
  }

  /// Writes `bytes` to a new file in the temporary folder and returns its path.
  public static func temporaryFile(_ bytes: [UInt8]) throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("luahost-\(UUID()).lua").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// Makes a new folder in the temporary folder holding `files` (name: contents, names may
  /// contain `/`), and returns its path.
  public static func temporaryFolder(_ files: [String: String]) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("luahost-\(UUID())")
    for (name, contents) in files {
      let url = folder.appendingPathComponent(name)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(contents.utf8).write(to: url)
    }
    return folder.path
  }

  /// Replaces the file at `path` with `source` in one step: written to a file outside its
  /// folder first, then renamed into place. A watcher of the folder never sees the file
  /// emptied, as a write in place (truncate, then write) would show it to one that wakes in
  /// between.
  public static func temporaryFileContents(_ source: String, at path: String) throws {
    let staged = FileManager.default.temporaryDirectory
      .appendingPathComponent("luahost-staged-\(UUID())").path
    try Data(source.utf8).write(to: URL(fileURLWithPath: staged))
    guard rename(staged, path) == 0 else {
      let code = errno
      try? FileManager.default.removeItem(atPath: staged)
      throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
    }
  }

  /// Writes `source` to a new file in the temporary folder and returns its path.
  public static func temporaryFile(_ source: String) throws -> String {
    try temporaryFile(Array(source.utf8))
  }

  /// How long one run may take before it is killed (and the test fails): a hung `luahost`
  /// must not hang the suite.
  public static let defaultTimeout: Double = 120

  /// Runs `luahost` (or another `program`) with `arguments`, feeding `stdin`, and waits for
  /// it to exit, or kills it after `timeout` seconds (the result then has status 137 and
  /// says so on stderr).
  public static func run(
    _ arguments: [String], stdin: String = "", environment: [String: String] = [:],
    directory: String? = nil, timeout: Double = defaultTimeout, program: URL? = nil
  ) throws -> ProcessResult {
    let process = Process()
    process.executableURL = program ?? executable
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env["LUA_INIT"] = nil
    env["LUA_INIT_5_4"] = nil
    env["NO_COLOR"] = "1"
    for (key, value) in environment { env[key] = value }
    process.environment = env
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    // Input that a pipe holds is written before the start: written after, to a child that
    // exits without reading it (`luahost -- - a` reads a file), it raised SIGPIPE, which
    // ended the whole test process. Larger input is written on another thread, or it would
    // wait for the child to read it while the child waits for its stdout to be read.
    let inputHandle = input.fileHandleForWriting
    let fits = stdin.utf8.count <= 32 * 1024
    if fits {
      try inputHandle.write(contentsOf: Data(stdin.utf8))
      try inputHandle.close()
    }
    try process.run()
    let killer = DispatchWorkItem { [process] in
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
    defer { killer.cancel() }
    let written = DispatchSemaphore(value: 0)
    if fits {
      written.signal()
    } else {
      DispatchQueue.global().async {
        try? inputHandle.write(contentsOf: Data(stdin.utf8))
        try? inputHandle.close()
        written.signal()
      }
    }
    defer { written.wait() }
    // Read stderr on another thread so a full pipe never blocks the child.
    let errorBox = DataBox()
    let errorHandle = errors.fileHandleForReading
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      errorBox.data = errorHandle.readDataToEndOfFile()
      done.signal()
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    done.wait()
    let errorData = errorBox.data
    process.waitUntilExit()
    let killed =
      process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    return ProcessResult(
      status: killed ? 137 : process.terminationStatus,
      stdout: String(decoding: outputData, as: UTF8.self),
      stderr: String(decoding: errorData, as: UTF8.self)
        + (killed ? "\n[killed after \(timeout) s]" : ""))
  }

  /// Runs `line` in `luahost -i` with `arguments` (the REPL reading a pipe) and returns the
  /// process's peak resident memory in bytes (`VmHWM`), read once the line has finished
  /// (the REPL then answers `.help`), while the process is still alive. The peak cannot be
  /// taken from `wait4`: Linux carries a parent's peak over into a child it spawns.
  public static func peakMemory(
    _ arguments: [String], running line: String, timeout: Double = defaultTimeout
  ) throws -> Int {
    // `.help` answers without running Lua, so it comes even when the script left no memory.
    try peakMemory(
      arguments + ["-i"],
      steps: [Step(send: line + "\n.help\n", expect: "show the sandbox profile")],
      timeout: timeout)
  }

  /// One step of ``peakMemory(_:steps:timeout:)``: run `action`, write `send` to the
  /// process's stdin, then wait until its stdout or stderr shows `expect`.
  public struct Step {
    public var action: () throws -> Void
    public var send: String
    public var expect: String

    public init(action: @escaping () throws -> Void = {}, send: String = "", expect: String) {
      self.action = action
      self.send = send
      self.expect = expect
    }
  }

  /// Runs `luahost` with `arguments` and stdin open, takes `steps` in order, and returns
  /// the process's peak resident memory in bytes (`VmHWM`) read after the last one, while
  /// the process is still alive; then closes stdin and waits for it to exit. A step whose
  /// text never comes ends the wait when the process ends (or is killed at `timeout`).
  public static func peakMemory(
    _ arguments: [String], steps: [Step], timeout: Double = defaultTimeout
  ) throws -> Int {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = output  // a step may wait for a report there (`--watch`'s)
    try process.run()
    let killer = DispatchWorkItem { [process] in
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
    defer { killer.cancel() }
    for step in steps {
      try step.action()
      if !step.send.isEmpty { input.fileHandleForWriting.write(Data(step.send.utf8)) }
      var tail = Data()  // only the end is searched: the output may be large
      while !String(decoding: tail, as: UTF8.self).contains(step.expect) {
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { break }  // the process ended early
        tail = tail.suffix(256) + chunk
      }
    }
    let status =
      (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8))
      ?? ""
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kib = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { throw CocoaError(.fileReadCorruptFile) }
    return kib * 1024
  }
}

/// Written by one reader thread, read after its semaphore is signalled.
private final class DataBox: @unchecked Sendable {
  var data = Data()
}
