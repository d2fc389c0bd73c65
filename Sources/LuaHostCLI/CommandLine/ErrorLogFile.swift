import ViewTree

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `luahost --error-log FILE`: every routed error as one line of JSON, appended to FILE:
///
/// ```json
/// {"time":"2026-12-01T17:40:00.123Z","view":"root/saver/save","boundary":"root/saver",
///  "handlers":"saver presented","message":"disk busy","location":"app.lua:5",
///  "plugin":null,"unhandled":false}
/// ```
///
/// `plugin` is the name of the plugin whose panel the error came from, if any. Each line is
/// flushed as it is written, so a crash loses nothing logged before it.
package final class ErrorLogFile {
  private let file: UnsafeMutablePointer<FILE>
  /// The path of the plugins' container (`root/plugins`): a view below `root/plugins/NAME`
  /// belongs to the plugin NAME.
  package var pluginsPath: String?

  /// Opens `path` for appending.
  /// - Throws: ``UsageError`` if it cannot be opened.
  package init(path: String) throws {
    guard let file = fopen(path, "a") else {
      throw UsageError("--error-log: cannot open \(path): \(String(cString: strerror(errno)))")
    }
    self.file = file
  }

  deinit { fclose(file) }

  /// The log to set on a window: writes each entry as a line.
  package var log: ErrorLog {
    { [weak self] entry in self?.write(entry) }
  }

  func write(_ entry: ErrorLogEntry) {
    let line = Self.line(for: entry, plugin: plugin(of: entry.originPath))
    fputs(line + "\n", file)
    fflush(file)
  }

  private func plugin(of path: String) -> String? {
    guard let prefix = pluginsPath.map({ $0 + "/" }), path.hasPrefix(prefix) else { return nil }
    return path.dropFirst(prefix.count).split(separator: "/").first.map(String.init)
  }

  /// One entry as a JSON object on one line.
  static func line(for entry: ErrorLogEntry, plugin: String?) -> String {
    let time = Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(entry.time)
    let fields: [(String, String?)] = [
      ("time", time), ("view", entry.originPath), ("boundary", entry.boundaryPath),
      ("handlers", entry.handlerChain.chainDescription), ("message", entry.message),
      ("location", entry.sourceLocation), ("plugin", plugin),
    ]
    let body = fields.map { "\"\($0.0)\":\($0.1.map(TestReport.jsonString) ?? "null")" }
    return "{" + (body + ["\"unhandled\":\(entry.isUnhandled)"]).joined(separator: ",") + "}"
  }
}
