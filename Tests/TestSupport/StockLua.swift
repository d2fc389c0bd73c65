import Foundation

/// The stock interpreter, `lua5.4` from Debian, to compare `luahost` with.
public enum StockLua {
  /// Runs `lua5.4` with `arguments` until it ends: its exit status and standard output
  /// (standard error is left to the test's own).
  public static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/lua5.4")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
  }
}
