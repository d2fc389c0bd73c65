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
/// A write the system refuses (a full disk, a closed pipe) is not silent: the writer keeps
/// the first ``WriteFailure`` in ``failure``, hands it to the `onFailure` handler given at
/// creation, and logs nothing more; ``unlogged`` counts the entries lost from then on.
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

  /// A write to the log's file that the system refused.
  public struct WriteFailure: Error, CustomStringConvertible, Sendable {
    /// The path given.
    public let path: String
    /// Why, as the system says it.
    public let reason: String
    /// `cannot write PATH: REASON`.
    public var description: String { "cannot write \(path): \(reason)" }
  }

  private struct Progress {
    var written = 0
    var stopped = false
    var failure: WriteFailure?
    var unlogged = 0
  }

  /// The most bytes one writer writes, its last line included.
  public static let sizeLimit = 16 << 20
  /// The most bytes of one field (message, location, view path) that are kept.
  public static let fieldLimit = 4096

  /// Writes a line; the failure if the system refused it.
  private let sink: @Sendable (String) -> WriteFailure?
  private let close: @Sendable () -> Void
  private let onFailure: (@Sendable (WriteFailure) -> Void)?
  private let progress = Mutex(Progress())

  /// A writer that appends to the file at `path` (created if missing).
  /// - Parameters:
  ///   - path: the file's path.
  ///   - onFailure: called once, on the thread that routed the error, if a write fails;
  ///     the writer logs nothing more.
  /// - Throws: ``CannotOpen`` if it cannot be opened for appending.
  public convenience init(
    path: String, onFailure: (@Sendable (WriteFailure) -> Void)? = nil
  ) throws {
    guard let file = fopen(path, "a") else {
      throw CannotOpen(path: path, reason: String(cString: strerror(errno)))
    }
    let handle = FileHandle(file: file)
    self.init(
      sink: { line in
        handle.write(line).map { WriteFailure(path: path, reason: String(cString: strerror($0))) }
      }, close: { handle.close() }, onFailure: onFailure)
  }

  /// A writer that hands each line (with its newline) to `write`: a socket, a buffer, a
  /// test's array.
  public convenience init(write: @escaping @Sendable (String) -> Void) {
    self.init(
      sink: {
        write($0)
        return nil
      }, close: {}, onFailure: nil)
  }

  private init(
    sink: @escaping @Sendable (String) -> WriteFailure?, close: @escaping @Sendable () -> Void,
    onFailure: (@Sendable (WriteFailure) -> Void)?
  ) {
    self.sink = sink
    self.close = close
    self.onFailure = onFailure
  }

  /// The first write the system refused, if any: from then on nothing is logged.
  public var failure: WriteFailure? { progress.withLock { $0.failure } }

  /// How many entries were not logged because a write failed (the one that failed
  /// included).
  public var unlogged: Int { progress.withLock { $0.unlogged } }

  deinit { close() }

  /// The log to set as a tree's `EnvironmentValues.errorLog`: writes each entry
  /// as a line. It holds the writer weakly (the tree must not keep its log's file open).
  public var log: ErrorLog {
    { [weak self] entry in self?.write(entry) }
  }

  /// Writes `entry` as a line, unless the log has reached ``sizeLimit`` or a write failed.
  public func write(_ entry: ErrorLogEntry) {
    let stop =
      "{\"stopped\":\"the error log reached its limit of \(Self.sizeLimit) bytes; "
      + "later errors are not logged\"}\n"
    let line: String? = progress.withLock { progress in
      guard progress.failure == nil else {
        progress.unlogged += 1
        return nil
      }
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
    guard let line, let failed = sink(line) else { return }
    let first = progress.withLock { progress in
      progress.unlogged += 1
      guard progress.failure == nil else { return false }
      progress.failure = failed
      return true
    }
    if first { onFailure?(failed) }
  }

  /// `text` cut to ``fieldLimit`` bytes (at the end of a Unicode scalar), marked when cut.
  static func bounded(_ text: String) -> String { text.clipped(toBytes: fieldLimit) }

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

  /// Writes and flushes `line`; the system's error number if either failed.
  func write(_ line: String) -> Int32? {
    lock.withLock { _ in
      guard let file else { return nil }
      let failed = fputs(line, file) == EOF || fflush(file) != 0
      guard failed else { return nil }
      let error = errno
      clearerr(file)
      return error
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
