import Foundation

/// A running `luahost` whose stdin stays open: a test writes files while it runs, waits for
/// its output to show the effect, then closes stdin and waits for the exit.
public final class LuahostChild: @unchecked Sendable {
  // `@unchecked Sendable` is justified: `output` and `errors` are guarded by `lock`; the
  // pipes and the process are only touched by the test's thread after `init`.
  private let process = Process()
  private let input = Pipe()
  private let lock = NSCondition()
  private var output = Data()
  private var errors = Data()

  /// Starts `luahost` with `arguments`, in `directory` if given.
  public init(_ arguments: [String], directory: String? = nil) throws {
    process.executableURL = Luahost.executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    var env = ProcessInfo.processInfo.environment
    env["LUA_INIT"] = nil
    env["NO_COLOR"] = "1"
    process.environment = env
    let outputPipe = Pipe()
    let errorPipe = Pipe()
    process.standardInput = input
    process.standardOutput = outputPipe
    process.standardError = errorPipe
    outputPipe.fileHandleForReading.readabilityHandler = { [lock] handle in
      let data = handle.availableData
      if data.isEmpty { handle.readabilityHandler = nil }  // end of file
      lock.lock()
      self.output.append(data)
      lock.broadcast()
      lock.unlock()
    }
    errorPipe.fileHandleForReading.readabilityHandler = { [lock] handle in
      let data = handle.availableData
      if data.isEmpty { handle.readabilityHandler = nil }  // end of file
      lock.lock()
      self.errors.append(data)
      lock.broadcast()
      lock.unlock()
    }
    try process.run()
  }

  /// The child's process id, for a test that signals it.
  public var processIdentifier: Int32 { process.processIdentifier }
  /// Whether the child ended by a signal it did not handle (after ``finish(timeout:)``).
  public var endedBySignal: Bool { process.terminationReason == .uncaughtSignal }

  /// Everything written to stdout so far.
  public var stdout: String { lock.withLock { String(decoding: output, as: UTF8.self) } }
  /// Everything written to stderr so far.
  public var stderr: String { lock.withLock { String(decoding: errors, as: UTF8.self) } }

  /// Waits until stdout (or stderr) contains `text`, woken by each write; false after
  /// `timeout` seconds (a bound for a hung child, not a wait the test relies on).
  public func waitFor(
    _ text: String, onStderr: Bool = false, timeout: Double = Luahost.defaultTimeout
  ) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    lock.lock()
    defer { lock.unlock() }
    while !String(decoding: onStderr ? errors : output, as: UTF8.self).contains(text) {
      guard lock.wait(until: deadline) else { return false }
    }
    return true
  }

  /// Writes `text` to the child's stdin, which stays open.
  public func write(_ text: String) throws {
    try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
  }

  /// Closes stdin and waits for the exit (killing the child after `timeout` seconds).
  public func finish(timeout: Double = Luahost.defaultTimeout) throws -> Int32 {
    try input.fileHandleForWriting.close()
    let killer = DispatchWorkItem { [process] in
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
    defer { killer.cancel() }
    process.waitUntilExit()
    return process.terminationStatus
  }
}
