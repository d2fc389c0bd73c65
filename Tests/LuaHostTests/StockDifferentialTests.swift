import Foundation
import TestSupport
import Testing

/// The sandbox against stock Lua, in the suite: the same generated calls of every function
/// the sandbox reimplements (and the top level's view of coroutines) through `luahost`
/// sandboxed and `luahost --trusted` (liblua's own functions), compared byte for byte; and
/// the C harness (`scripts/differential`), which compares the shim's functions with
/// liblua's in one process. CI runs both harder (`.ci/run`).
@Suite(.timeLimit(.minutes(30))) struct StockDifferentialTests {
  static let generator = Luahost.fixture("differential/stock.lua")

  @Test(arguments: [2, 3]) func theSandboxGivesStocksResults(seed: Int) throws {
    let arguments = [Self.generator, "\(seed)", "20000"]
    let ours = try Luahost.run(arguments)
    let stock = try Luahost.run(["--trusted"] + arguments)
    #expect(ours.status == 0, "\(ours.stderr)")
    #expect(stock.status == 0, "\(stock.stderr)")
    let oursLines = ours.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    let stockLines = stock.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    // The transcript is the evidence: every family ran, and errors were compared too.
    #expect(stockLines.count > 20_000)
    for label in ["find", "match", "gmatch", "gsub", "rep", "insert", "move", "date", "load"] {
      #expect(stockLines.contains { $0.hasPrefix(label + " ") }, "no \(label) case")
    }
    #expect(stockLines.filter { $0.contains(" error ") }.count > 1_000)
    if let index = zip(oursLines, stockLines).enumerated().first(where: { $1.0 != $1.1 })?.offset {
      Issue.record(
        "seed \(seed), line \(index + 1):\n ours: \(oursLines[index])\nstock: \(stockLines[index])")
    }
    #expect(oursLines.count == stockLines.count)
  }

  @Test func theShimsFunctionsGiveLibluasResults() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let process = Process()
    process.executableURL = root.appendingPathComponent("scripts/differential")
    process.arguments = ["--seed", "4", "--count", "20000"]
    process.currentDirectoryURL = root
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(text)")
    let families = text.split(separator: "\n").filter { $0.contains("family ") }
    #expect(families.count >= 10, "\(text)")
    #expect(families.allSatisfy { $0.contains(" 0 unexplained") }, "\(text)")
  }
}
