import Lua
import LuaHost

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
  /// What was expected and what happened, for a failure.
  package var message: String?
  /// More detail for a failure, e.g. a traceback.
  package var detail: String?

  /// Creates a result.
  package init(
    name: String, file: String, line: Int? = nil, status: Status, message: String? = nil,
    detail: String? = nil
  ) {
    self.name = name
    self.file = file
    self.line = line
    self.status = status
    self.message = message
    self.detail = detail
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
