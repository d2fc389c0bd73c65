import Foundation
import LuaHostFuzzing
import Testing

/// Resident memory must come back after thousands of sandboxes that raise every kind of error.
///
/// The loop runs in its own process (`LeakCheck`, built next to the test bundle): Swift
/// Testing runs other suites in parallel in this process, and their allocations would blur
/// a 5% measurement.
@Suite(.timeLimit(.minutes(10))) struct LeakTests {
  var leakCheck: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("LeakCheck")
  }

  @Test func tenThousandSandboxesReturnTheirMemory() throws {
    let process = Process()
    process.executableURL = leakCheck
    process.arguments = ["10000", "1000"]
    var environment = ProcessInfo.processInfo.environment
    // Under AddressSanitizer freed memory waits in a quarantine (256 MB by default) before
    // reuse; keep it small so that it fills during the warm-up. Leaks are also caught by
    // LeakSanitizer when the child exits, which fails it.
    environment["ASAN_OPTIONS"] = "quarantine_size_mb=8:detect_leaks=1"
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    #expect(process.terminationStatus == 0, "\(text)")
    let numbers = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
    try #require(numbers.count >= 2, "unexpected output: \(text)")
    guard !text.contains("tsan") else { return }  // see LeakCheck/main.swift
    let (before, after) = (Double(numbers[0]), Double(numbers[1]))
    #expect(after <= before * 1.05, "resident memory grew from \(before) to \(after) bytes")
  }

  @Test func everyLeakLoopChunkKeepsThePromises() {
    #expect(LeakLoop.run(iterations: LeakLoop.chunks.count, treeEvery: 4) == [])
  }
}
