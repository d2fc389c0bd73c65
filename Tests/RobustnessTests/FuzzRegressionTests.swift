import Foundation
import LuaHostFuzzing
import Testing

/// Replays the fuzzers' seed corpora and every input that once broke a promise.
///
/// A crash found by `scripts/fuzz` is saved under `Fuzz/regressions/<target>/` (and gets a
/// named test below when it needs explaining); all of them are replayed here.
@Suite(.timeLimit(.minutes(30))) struct FuzzRegressionTests {
  static let fuzzFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz")

  static func inputs(_ target: String) -> [URL] {
    ["corpus", "regressions"].flatMap { folder in
      let url = fuzzFolder.appendingPathComponent(folder).appendingPathComponent(target)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
      return names.sorted().filter { !$0.hasPrefix(".") }.map { url.appendingPathComponent($0) }
    }
  }

  @Test func corporaArePresent() {
    #expect(Self.inputs("chunk").count >= 10)
    #expect(Self.inputs("tree").count >= 5)
  }

  @Test(arguments: inputs("chunk")) func chunkInput(_ url: URL) throws {
    let bytes = try [UInt8](Data(contentsOf: url))
    #expect(ChunkFuzzer.run(bytes) == [], "\(url.lastPathComponent)")
  }

  @Test(arguments: inputs("tree")) func treeInput(_ url: URL) throws {
    let bytes = try [UInt8](Data(contentsOf: url))
    #expect(TreeFuzzer.run(bytes) == [], "\(url.lastPathComponent)")
  }
}
