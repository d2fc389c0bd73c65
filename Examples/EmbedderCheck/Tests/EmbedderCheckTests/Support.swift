import Foundation
import Lua
import ViewTree

/// An error with a description of its own, as an app's errors have.
struct Failure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A new folder in the temporary folder holding `files` (name: contents, names may contain
/// `/`); its path.
func temporaryFolder(_ files: [String: String]) throws -> String {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "embedder-\(UUID())")
  for (name, contents) in files {
    let url = folder.appendingPathComponent(name)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(contents.utf8).write(to: url)
  }
  return folder.path
}

/// Limits for work that must finish: no deadline, since these scripts also wait for
/// timers, whose wake-ups need a thread of the cooperative pool, which tests running in
/// parallel can keep busy for a long time. The suites' time limits are the hang guards.
var patientLimits: LuaSandbox {
  var limits = LuaSandbox()
  limits.timeout = nil
  return limits
}

/// Fires once; `wait()` returns when it has (an event, not a sleep).
final class Signal: Sendable {
  private let stream: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation

  init() { (stream, continuation) = AsyncStream.makeStream() }

  func fire() { continuation.yield() }

  func wait() async {
    for await _ in stream { return }
  }
}
