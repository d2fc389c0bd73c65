import Foundation
import LuaHostFuzzing
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Resident memory must come back after thousands of sandboxes that raise every kind of error.
///
/// The loop runs in its own process (`LeakCheck`, built next to the test bundle): Swift
/// Testing runs other suites in parallel in this process, and their allocations would blur
/// a 5% measurement.
@Suite(.timeLimit(.minutes(30))) struct LeakTests {
  /// One run of `LeakCheck`, shared by the two tests that read it (the first to ask starts
  /// it; the other waits for the same run).
  static let leakCheck = Task { LeakCheckRun.start() }

  @Test func tenThousandSandboxesKeepEveryPromise() async throws {
    let run = await Self.leakCheck.value
    #expect(run.status == 0, "\(run.output)")
    // The child reports ThreadSanitizer as this process sees it (the skip below relies on it).
    #expect(run.output.contains(" tsan") == ThreadSanitizer.isLoaded, "\(run.output)")
  }

  /// Skipped under ThreadSanitizer, which keeps its own metadata for freed memory: resident
  /// memory says nothing about leaks there (`LeakCheck` then runs a tenth of the loop, for
  /// its race checks, which the test above still reads).
  @Test(.enabled(if: !ThreadSanitizer.isLoaded, "resident memory says nothing under TSan"))
  func tenThousandSandboxesReturnTheirMemory() async throws {
    let run = await Self.leakCheck.value
    let numbers = run.output.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap {
      Int($0)
    }
    try #require(numbers.count >= 2, "unexpected output: \(run.output)")
    let (before, after) = (Double(numbers[0]), Double(numbers[1]))
    #expect(after <= before * 1.05, "resident memory grew from \(before) to \(after) bytes")
  }

  @Test func everyLeakLoopChunkKeepsThePromises() {
    #expect(LeakLoop.run(iterations: LeakLoop.chunks.count, treeEvery: 4) == [])
  }
}

/// Whether ThreadSanitizer's runtime is loaded, found as `LeakCheck` finds it in itself (it
/// is built alike): known before any test runs, so a test it voids is reported as skipped.
enum ThreadSanitizer {
  static let isLoaded = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
}

/// How one run of `LeakCheck` ended and what it printed.
struct LeakCheckRun: Sendable {
  var status: Int32
  var output: String

  /// Runs `LeakCheck` (10,000 sandboxes after 1,000 to warm up) and waits for it to end.
  static func start() -> LeakCheckRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
      .deletingLastPathComponent().appendingPathComponent("LeakCheck")
    process.arguments = ["10000", "1000"]
    var environment = ProcessInfo.processInfo.environment
    // Under AddressSanitizer freed memory waits in a quarantine (256 MB by default) before
    // reuse; keep it small so that it fills during the warm-up. Leaks are also caught by
    // LeakSanitizer when the child exits, which fails it.
    environment["ASAN_OPTIONS"] = "quarantine_size_mb=8:detect_leaks=1"
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    do {
      try process.run()
    } catch {
      return LeakCheckRun(status: -1, output: "LeakCheck did not start: \(error)")
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return LeakCheckRun(
      status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
  }
}
