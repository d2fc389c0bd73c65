#if canImport(Glibc)
  import Glibc
#endif

/// One line of the results: ours against a baseline, or an absolute measurement.
struct Row {
  var name: String
  var ours: Double
  var baseline: Double?
  /// The largest acceptable ours/baseline time ratio; nil for an informational row.
  var target: Double?
  /// How the target reads in the table (e.g. "≥ 0.95× speed").
  var targetText: String?
  var unit: String = "ns"
  /// A breakdown row, printed indented under its case.
  var isDetail = false
  /// A promise the documents make (a stop within 100 ms), not a goal: missing it fails
  /// the run, so CI's smoke run notices.
  var isPromise = false
  /// The largest acceptable time of ours (in `unit`), for a goal set in time, not as a ratio.
  var limit: Double?

  var ratio: Double? { baseline.map { ours / $0 } }
  var met: Bool? {
    if let limit { return ours <= limit }
    guard let ratio, let target else { return nil }
    return ratio <= target
  }
}

enum Report {
  static func machine() -> String {
    var model = "unknown CPU"
    if let text = try? readFile("/proc/cpuinfo") {
      for line in text.split(separator: "\n") where line.hasPrefix("model name") {
        if let colon = line.firstIndex(of: ":") {
          model = line[line.index(after: colon)...].trimmingCharacters()
        }
        break
      }
    }
    let cores = sysconf(Int32(_SC_NPROCESSORS_ONLN))
    return "\(model), \(cores) cores online"
  }

  static func readFile(_ path: String) throws -> String {
    guard let file = fopen(path, "r") else { throw BenchError("cannot open \(path)") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = fread(&buffer, 1, buffer.count, file)
      if n <= 0 { break }
      bytes += buffer[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  static func format(_ value: Double, unit: String) -> String {
    if value.isNaN { return "–" }
    if unit == "ns" {
      if value >= 1_000_000 { return fixed(value / 1_000_000, 2) + " ms" }
      if value >= 10_000 { return fixed(value / 1000, 1) + " µs" }
      return fixed(value, 1) + " ns"
    }
    return fixed(value, value >= 100 ? 0 : 1) + " " + unit
  }

  static func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = "\(rounded)"
    if let dot = text.firstIndex(of: ".") {
      let decimals = text.distance(from: dot, to: text.endIndex) - 1
      if digits == 0 {
        text = String(text[..<dot])
      } else if decimals < digits {
        text += String(repeating: "0", count: digits - decimals)
      }
    }
    return text
  }

  static func table(_ rows: [Row]) -> String {
    var lines = [
      "| Case | Ours | Baseline | Ratio | Target | Met |",
      "|---|---:|---:|---:|---|---|",
    ]
    for row in rows {
      let name = row.isDetail ? "  ↳ " + row.name : row.name
      let baseline = row.baseline.map { format($0, unit: row.unit) } ?? "–"
      let ratio = row.ratio.map { fixed($0, 2) + "×" } ?? "–"
      let target = row.targetText ?? row.target.map { "≤ " + fixed($0, 2) + "×" } ?? "–"
      let met = row.met.map { $0 ? "yes" : "**no**" } ?? "–"
      lines.append(
        "| \(name) | \(format(row.ours, unit: row.unit)) | \(baseline) | \(ratio) | \(target) | \(met) |"
      )
    }
    return lines.joined(separator: "\n")
  }

  static func json(_ row: Row) -> String {
    func number(_ value: Double?) -> String {
      guard let value, value.isFinite else { return "null" }
      return fixed(value, 3)
    }
    let name = row.name.replacingOccurrences(of: "\"", with: "\\\"")
    return
      "{\"name\":\"\(name)\",\"ours_ns\":\(number(row.ours)),\"baseline_ns\":\(number(row.baseline)),"
      + "\"ratio\":\(number(row.ratio)),\"target\":\(number(row.target)),\"unit\":\"\(row.unit)\","
      + "\"detail\":\(row.isDetail)}"
  }
}

struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

extension Substring {
  func trimmingCharacters() -> String {
    String(
      drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " }).reversed())
  }
}

extension String {
  func replacingOccurrences(of target: String, with replacement: String) -> String {
    split(separator: Character(target), omittingEmptySubsequences: false).joined(
      separator: replacement)
  }
}
