import Lua

/// The outcome of one test, or of a test file that could not run.
public struct TestResult: Equatable, Sendable {
  /// Passed, failed or skipped.
  public enum Status: String, Equatable, Sendable {
    /// Every expectation held.
    case passed
    /// An expectation failed, the test raised an error, hung, or its file is broken.
    case failed
    /// Registered with `test.skip`.
    case skipped
  }

  /// The test's name, with its `describe` groups; for a broken file, a description.
  public var name: String
  /// The test file.
  public var file: String
  /// The line of the test (or of the failure), when known.
  public var line: Int?
  /// The status.
  public var status: Status
  /// What was expected and what happened, for a failure.
  public var message: String?
  /// More detail for a failure, e.g. a traceback.
  public var detail: String?

  /// Creates a result.
  public init(
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
  public var location: String { line.map { "\(file):\($0)" } ?? file }
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
