import Foundation

/// The stock interpreter, `lua5.4` from Debian, to compare `luahost` with.
public enum StockLua {
  /// Runs `lua5.4` with `arguments` until it ends: its exit status and standard output
  /// (standard error is left to the test's own).
  public static func run(
    _ arguments: [String], stdin: String? = nil, directory: String? = nil
  ) throws -> (status: Int32, stdout: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/lua5.4")
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let pipe = Pipe()
    process.standardOutput = pipe
    let input = Pipe()
    process.standardInput = stdin == nil ? FileHandle.nullDevice : input
    if let stdin {
      // Written before the start, into the pipe's buffer (a short text fits): written
      // after, to an interpreter that never reads it and has exited, it raised SIGPIPE in
      // the test process.
      try input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8))
      try input.fileHandleForWriting.close()
    }
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
  }
}
