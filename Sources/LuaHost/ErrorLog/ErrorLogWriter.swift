import Synchronization
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

/// Writes every routed error as one line of JSON: what `luahost --error-log FILE` writes.
///
/// ```swift
/// let log = try ErrorLogWriter(path: "errors.jsonl")
/// window.environment.errorLog = log.log
/// ```
///
/// Each line is one object:
///
/// ```json
/// {"time":"2026-12-01T17:40:00.123Z","view":"root/saver/save","boundary":"root/saver",
///  "handlers":"saver presented","message":"disk busy","location":"app.lua:5",
///  "plugin":null,"unhandled":false}
/// ```
///
/// `plugin` is the name of the plugin whose panel the error came from, if any
/// (`ErrorLogEntry.plugin`): the panel's own mark, never a name read from a view
/// path, so no view id can blame another plugin. A file is flushed line by line, so a
/// crash loses nothing logged before it.
///
/// The log is bounded: a message, location or view path longer than ``fieldLimit`` bytes
/// is cut, and after ``sizeLimit`` bytes one last line says that logging stopped (a script
/// that fails in a loop cannot fill the disk).
///
/// Thread-safe: the writer may be set on several trees, whose errors are routed on any
/// thread.
public final class ErrorLogWriter: Sendable {
  /// A file the writer could not open.
  public struct CannotOpen: Error, CustomStringConvertible {
    /// The path given.
    public let path: String
    /// Why, as the system says it.
    public let reason: String
    /// `cannot open PATH: REASON`.
    public var description: String { "cannot open \(path): \(reason)" }
  }

  private struct Progress {
    var written = 0
    var stopped = false
  }

  /// The most bytes one writer writes, its last line included.
  public static let sizeLimit = 16 << 20
  /// The most bytes of one field (message, location, view path) that are kept.
  public static let fieldLimit = 4096

  private let sink: @Sendable (String) -> Void
  private let close: @Sendable () -> Void
  private let progress = Mutex(Progress())

  /// A writer that appends to the file at `path` (created if missing).
  /// - Throws: ``CannotOpen`` if it cannot be opened for appending.
  public convenience init(path: String) throws {
    guard let file = fopen(path, "a") else {
      throw CannotOpen(path: path, reason: String(cString: strerror(errno)))
    }
    let handle = FileHandle(file: file)
    self.init(sink: { line in handle.write(line) }, close: { handle.close() })
  }

  /// A writer that hands each line (with its newline) to `write`: a socket, a buffer, a
  /// test's array.
  public convenience init(write: @escaping @Sendable (String) -> Void) {
    self.init(sink: write, close: {})
  }

  private init(sink: @escaping @Sendable (String) -> Void, close: @escaping @Sendable () -> Void) {
    self.sink = sink
    self.close = close
  }

  deinit { close() }

  /// The log to set as a tree's `EnvironmentValues.errorLog`: writes each entry
  /// as a line. It holds the writer weakly (the tree must not keep its log's file open).
  public var log: ErrorLog {
    { [weak self] entry in self?.write(entry) }
  }

  /// Writes `entry` as a line, unless the log has reached ``sizeLimit``.
  public func write(_ entry: ErrorLogEntry) {
    let stop =
      "{\"stopped\":\"the error log reached its limit of \(Self.sizeLimit) bytes; "
      + "later errors are not logged\"}\n"
    let line: String? = progress.withLock { progress in
      guard !progress.stopped else { return nil }
      var line = Self.line(for: entry) + "\n"
      if progress.written + line.utf8.count + stop.utf8.count > Self.sizeLimit {
        line = stop
        progress.stopped = true
      }
      progress.written += line.utf8.count
      return line
    }
    // In the order taken: the sink's own lock (a file's) keeps lines whole.
    if let line { sink(line) }
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

  /// One entry as a JSON object on one line, without the newline.
  public static func line(for entry: ErrorLogEntry) -> String {
    let time = Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(entry.time)
    let fields: [(String, String?)] = [
      ("time", time), ("view", bounded(entry.originPath)),
      ("boundary", bounded(entry.boundaryPath)),
      ("handlers", bounded(entry.handlerChain.chainDescription)),
      ("message", bounded(entry.message)), ("location", entry.sourceLocation.map(bounded)),
      ("plugin", entry.plugin),
    ]
    let body = fields.map { "\"\($0.0)\":\($0.1.map(jsonString) ?? "null")" }
    return "{" + (body + ["\"unhandled\":\(entry.isUnhandled)"]).joined(separator: ",") + "}"
  }
}

/// A C file that one lock guards: `fputs` and `fflush` of a line happen together.
private final class FileHandle: @unchecked Sendable {
  // `@unchecked Sendable` is justified: `file` is read and written only holding `lock`.
  private let lock = Mutex(())
  private var file: UnsafeMutablePointer<FILE>?

  init(file: UnsafeMutablePointer<FILE>) { self.file = file }

  func write(_ line: String) {
    lock.withLock { _ in
      guard let file else { return }
      fputs(line, file)
      fflush(file)
    }
  }

  func close() {
    lock.withLock { _ in
      if let file { fclose(file) }
      file = nil
    }
  }
}

extension ErrorLogEntry {
  /// The plugin whose panel the error came from, if any: the `owner`
  /// a ``PluginHost`` sets on each plugin's panel (host code only: no script can set it).
  public var plugin: String? { owner }
}
