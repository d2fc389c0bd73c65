import Lua
import LuaHost
import ViewTree

/// The outcome of one test, or of a test file that could not run.
package struct TestResult: Equatable, Sendable {
  /// Passed, failed or skipped.
  package enum Status: String, Equatable, Sendable {
    /// Every expectation held.
    case passed
    /// An expectation failed, the test raised an error, hung, or its file is broken.
    case failed
    /// Registered with `test.skip`.
    case skipped
  }

  /// The test's name, with its `describe` groups; for a broken file, a description.
  package var name: String
  /// The test file.
  package var file: String
  /// The line of the test (or of the failure), when known.
  package var line: Int?
  /// The status.
  package var status: Status
  /// What was expected and what happened, for a failure; cut to ``textLimit`` bytes.
  package var message: String? { didSet { message = message.map(Self.clipped) } }
  /// More detail for a failure, e.g. a traceback; cut to ``textLimit`` bytes.
  package var detail: String? { didSet { detail = detail.map(Self.clipped) } }

  /// The most bytes of a message or a detail a result keeps: a run keeps every result,
  /// and a failing test's message is a script's string (ten tests failing with 12 MB
  /// messages took 1.5 GB under a 32 MB limit before).
  package static let textLimit = 64 << 10

  /// `text` cut to at most ``textLimit`` bytes (at the end of a Unicode scalar), saying
  /// how much more there was.
  static func clipped(_ text: String) -> String { text.clipped(toBytes: textLimit) }

  /// Creates a result.
  package init(
    name: String, file: String, line: Int? = nil, status: Status, message: String? = nil,
    detail: String? = nil
  ) {
    self.name = name
    self.file = file
    self.line = line
    self.status = status
    self.message = message.map(Self.clipped)
    self.detail = detail.map(Self.clipped)
  }

  /// `file:line`, or the file alone.
  package var location: String { line.map { "\(file):\($0)" } ?? file }
}

extension LuaError.Kind {
  /// The name `expect.error` uses for this kind.
  var testName: String {
    switch self {
    case .syntax: "syntax"
    case .runtime: "runtime"
    case .memory: "memory"
    case .messageHandler: "runtime"
    case .file: "file"
    case .swift: "swift"
    case .conversion: "conversion"
    case .usage: "usage"
    case .instructionLimit: "instructions"
    case .timeout: "timeout"
    case .interrupted: "interrupted"
    }
  }
}
