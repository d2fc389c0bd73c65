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

  /// Writes `source` to a new file in the temporary folder and returns its path.
  public static func temporaryFile(_ source: String) throws -> String {
    try temporaryFile(Array(source.utf8))
  }

  /// Runs `luahost` with `arguments`, feeding `stdin`, and waits for it.
  public static func run(
    _ arguments: [String], stdin: String = "", environment: [String: String] = [:],
    directory: String? = nil
  ) throws -> ProcessResult {
    let process = Process()
    process.executableURL = executable
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
    try process.run()
    input.fileHandleForWriting.write(Data(stdin.utf8))
    try input.fileHandleForWriting.close()
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
    return ProcessResult(
      status: process.terminationStatus,
      stdout: String(decoding: outputData, as: UTF8.self),
      stderr: String(decoding: errorData, as: UTF8.self))
  }
}

/// Written by one reader thread, read after its semaphore is signalled.
private final class DataBox: @unchecked Sendable {
  var data = Data()
}
