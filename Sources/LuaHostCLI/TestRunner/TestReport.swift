import LuaHost

/// Formats test results: plain (deterministic), coloured, TAP or JSON. The plain and
/// coloured forms end with the summary line `N passed, N failed` (`, N skipped` when any).
package enum TestReport {
  /// The output format.
  package enum Format: Sendable {
    /// Text, optionally coloured.
    case text(colors: Bool)
    /// Test Anything Protocol, version 13.
    case tap
    /// One JSON document.
    case json
  }

  /// The summary line.
  package static func summary(_ results: [TestResult]) -> String {
    let passed = results.filter { $0.status == .passed }.count
    let failed = results.filter { $0.status == .failed }.count
    let skipped = results.filter { $0.status == .skipped }.count
    return "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
  }

  /// The whole report.
  package static func render(_ results: [TestResult], format: Format) -> String {
    switch format {
    case .text(let colors): text(results, colors: colors)
    case .tap: tap(results)
    case .json: json(results)
    }
  }

  static func text(_ results: [TestResult], colors: Bool) -> String {
    func paint(_ s: String, _ code: String) -> String {
      colors ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s
    }
    var lines: [String] = []
    var currentFile: String?
    for result in results {
      let name = result.name.visibleControls(keepingNewlines: false)
      if result.file != currentFile {
        currentFile = result.file
        lines.append(result.file)
      }
      switch result.status {
      case .passed: lines.append("  " + paint("PASS", "32") + " \(name)")
      case .skipped: lines.append("  " + paint("SKIP", "33") + " \(name)")
      case .failed:
        lines.append("  " + paint("FAIL", "31") + " \(name) (\(result.location))")
        for line in (result.message ?? "").visibleControls().split(
          separator: "\n", omittingEmptySubsequences: false)
        {
          lines.append("       \(line)")
        }
        if let detail = result.detail {
          // A traceback names chunks the script chose (`load(s, "=\27[31m…")`).
          lines += detail.visibleControls().split(separator: "\n").map {
            "       " + paint(String($0), "2")
          }
        }
      }
    }
    lines.append(summary(results))
    return lines.joined(separator: "\n") + "\n"
  }

  static func tap(_ results: [TestResult]) -> String {
    var lines = ["TAP version 13", "1..\(results.count)"]
    for (index, result) in results.enumerated() {
      let number = index + 1
      // A `#` would start a TAP directive (`# SKIP`): escaped as TAP allows.
      let name = result.name.visibleControls(keepingNewlines: false)
        .split(separator: "#", omittingEmptySubsequences: false).joined(separator: "\\#")
      switch result.status {
      case .passed: lines.append("ok \(number) - \(name)")
      case .skipped: lines.append("ok \(number) - \(name) # SKIP")
      case .failed:
        lines.append("not ok \(number) - \(name)")
        lines.append("  ---")
        lines.append("  message: \(jsonString(result.message ?? ""))")
        lines.append("  at: \(jsonString(result.location))")
        lines.append("  ...")
      }
    }
    lines.append("# " + summary(results))
    return lines.joined(separator: "\n") + "\n"
  }

  static func json(_ results: [TestResult]) -> String {
    let tests = results.map { result in
      var fields = [
        "\"name\":\(jsonString(result.name))", "\"file\":\(jsonString(result.file))",
        "\"status\":\(jsonString(result.status.rawValue))",
      ]
      fields.append("\"line\":" + (result.line.map(String.init) ?? "null"))
      fields.append("\"message\":" + (result.message.map(jsonString) ?? "null"))
      return "{" + fields.joined(separator: ",") + "}"
    }
    let count = { (status: TestResult.Status) in results.filter { $0.status == status }.count }
    return "{\"tests\":[" + tests.joined(separator: ",")
      + "],\"passed\":\(count(.passed)),\"failed\":\(count(.failed)),\"skipped\":\(count(.skipped))}\n"
  }
}
