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
/// `plugin` is the name of the plugin whose panel the error came from, if any: the panel's
/// own mark (``ErrorLogEntry/owner``), never a name read from a view path, so no view id
/// can blame another plugin. Each line is flushed as it is written, so a crash loses nothing
/// logged before it.
///
/// The log is bounded: a message or location longer than ``fieldLimit`` bytes is cut, and
/// after ``sizeLimit`` bytes in one run one last line says that logging stopped (a script
/// that fails in a loop cannot fill the disk).
package final class ErrorLogFile {
  private let file: UnsafeMutablePointer<FILE>
  /// The most bytes one run writes, the last line included.
  package static let sizeLimit = 16 << 20
  /// The most bytes of one field (message, location, view path) that are kept.
  package static let fieldLimit = 4096
  private var written = 0
  private var stopped = false

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
    guard !stopped else { return }
    var line = Self.line(for: entry, plugin: entry.owner) + "\n"
    let stop =
      "{\"stopped\":\"the error log reached its limit of \(Self.sizeLimit) bytes; "
      + "later errors are not logged\"}\n"
    if written + line.utf8.count + stop.utf8.count > Self.sizeLimit {
      line = stop
      stopped = true
    }
    written += line.utf8.count
    fputs(line, file)
    fflush(file)
  }

  /// `text` cut to ``fieldLimit`` bytes (at a character boundary), marked when cut.
  static func bounded(_ text: String) -> String {
    guard text.utf8.count > fieldLimit else { return text }
    var cut = ""
    var size = 0
    for character in text {
      size += character.utf8.count
      if size > fieldLimit { break }
      cut.append(character)
    }
    return cut + "… (\(text.utf8.count - cut.utf8.count) more bytes)"
  }

  /// One entry as a JSON object on one line.
  static func line(for entry: ErrorLogEntry, plugin: String?) -> String {
    let time = Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(entry.time)
    let fields: [(String, String?)] = [
      ("time", time), ("view", bounded(entry.originPath)),
      ("boundary", bounded(entry.boundaryPath)),
      ("handlers", bounded(entry.handlerChain.chainDescription)),
      ("message", bounded(entry.message)), ("location", entry.sourceLocation.map(bounded)),
      ("plugin", plugin),
    ]
    let body = fields.map { "\"\($0.0)\":\($0.1.map(TestReport.jsonString) ?? "null")" }
    return "{" + (body + ["\"unhandled\":\(entry.isUnhandled)"]).joined(separator: ",") + "}"
  }
}
