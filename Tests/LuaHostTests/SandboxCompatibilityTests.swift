import Foundation
import TestSupport
import Testing

/// Ordinary Lua runs unmodified in the sandbox and trusted: each program under
/// `Tests/Fixtures/compat` (modules with `package.loaded`, `init.lua` and `spec/helper`
/// names, classes with `__gc`, big linear pattern work, `debug.traceback` in a handler, a
/// library in the usual style, `print` of raw bytes, byte order marks and shebangs,
/// liblua's messages, the coroutine library in every status) prints exactly what the stock
/// `lua5.4` prints.
@Suite(.timeLimit(.minutes(30))) struct SandboxCompatibilityTests {
  static var programs: [String] {
    let folder = Luahost.fixtures.appendingPathComponent("compat").path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { !$0.hasPrefix(".") }.sorted()
  }

  /// The stock interpreter (scripts/setup installs Debian's `lua5.4`).
  static let stock = "/usr/bin/lua5.4"

  @Test func everyProgramIsThere() {
    #expect(Self.programs.count >= 6)
  }

  @Test(arguments: programs) func printsWhatStockLuaPrints(_ program: String) throws {
    try #require(
      FileManager.default.isExecutableFile(atPath: Self.stock),
      "\(Self.stock) is needed: scripts/setup installs it")
    let folder = Luahost.fixtures.appendingPathComponent("compat/\(program)").path
    let theirs = try Self.runStock(in: folder)
    // Trusted too: both modes replace some of liblua's functions (the coroutine library's
    // with stop-aware ones).
    for options in [[], ["--trusted"]] {
      let ours = try Luahost.run(options + ["main.lua"], directory: folder)
      #expect(ours.status == theirs.status, "\(options): \(ours.stderr)")
      #expect(ours.stdout == theirs.stdout, "\(options)")
      #expect(
        ours.stderr == theirs.stderr.replacingOccurrences(of: "lua5.4:", with: "luahost:"),
        "\(options)")
    }
  }

  /// As `lua` runs one: trusted, a precompiled script runs (after a shebang line too);
  /// sandboxed, bytecode is refused.
  @Test func aPrecompiledScriptRunsOnlyTrusted() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("precompiled-\(ProcessInfo.processInfo.processIdentifier).luac").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let dump = "'#!/usr/bin/lua\\n', string.dump(load('print(\"compiled\")'))"
    let write = try Luahost.run([
      "--trusted", "-e", "local f = assert(io.open('\(path)', 'wb')) f:write(\(dump)) f:close()",
    ])
    #expect(write.status == 0, "\(write.stderr)")
    let trusted = try Luahost.run(["--trusted", path])
    #expect(trusted.stdout == "compiled\n", "\(trusted.stderr)")
    let sandboxed = try Luahost.run([path])
    #expect(sandboxed.status == 1)
    #expect(sandboxed.stderr.contains("attempt to load a binary chunk"), "\(sandboxed.stderr)")
  }

  static func runStock(in folder: String) throws -> (status: Int32, stdout: String, stderr: String)
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: stock)
    process.arguments = ["main.lua"]
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    var environment = ProcessInfo.processInfo.environment
    environment["LUA_INIT"] = nil
    environment["LUA_PATH"] = nil
    process.environment = environment
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: out, as: UTF8.self),
      String(decoding: err, as: UTF8.self)
    )
  }
}
