import Lua
import ViewTree

/// Renders Lua values for the REPL: tables with sorted keys, safe on cycles and capped in
/// depth and size; views by kind, id and path. Colours only when asked (a terminal without
/// `NO_COLOR`). Never runs script code: tables are read raw, and only strings, numbers and
/// Swift objects are rendered without `tostring`.
public struct PrettyPrinter {
  /// Whether to use ANSI colours.
  public var colors: Bool
  /// How deep nested tables are expanded.
  public var maxDepth = 3
  /// How many entries of one table are shown.
  public var maxItems = 24
  /// How many table entries one ``format(_:)`` reads in all: a table of millions of
  /// entries costs no more than this.
  public var maxVisits = 2_000
  /// How many bytes of a string are shown.
  public var maxStringLength = 2_000

  /// Creates a printer.
  public init(colors: Bool) { self.colors = colors }

  /// The text for `value`.
  public func format(_ value: LuaValue) -> String {
    var visiting = Set<LuaValue>()
    var visits = 0
    return format(value, depth: 0, visiting: &visiting, visits: &visits)
  }

  private func paint(_ text: String, _ code: String) -> String {
    colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  private func format(
    _ value: LuaValue, depth: Int, visiting: inout Set<LuaValue>, visits: inout Int
  ) -> String {
    switch value {
    case .nil, .boolean: return paint(value.description, "35")
    case .integer, .number: return paint(value.description, "36")
    case .string(let s):
      guard s.bytes.count > maxStringLength else { return paint(Self.quote(s), "32") }
      let kept = LuaString(bytes: s.bytes.prefix(maxStringLength))
      return paint(Self.quote(kept) + "…", "32")
    case .userdata(let u):
      if let view = u.object(as: View.self) {
        // Its id and path are a script's text: escaped, as strings are quoted.
        return paint("\(view) (\(view.path))".visibleControls(keepingNewlines: false), "33")
      }
      return paint(value.description, "33")
    case .table(let table):
      guard !visiting.contains(value) else { return paint("<cycle>", "31") }
      guard depth < maxDepth else { return "{…}" }
      let budget = max(0, min(maxVisits - visits, maxItems * 4))
      guard
        let (pairs, complete) = try? table.rawPairs(limit: budget, maxStringLength: maxStringLength)
      else { return value.description }
      visits += pairs.count
      if pairs.isEmpty { return complete ? "{}" : "{…}" }
      visiting.insert(value)
      defer { visiting.remove(value) }
      let sorted = Self.sortedPairs(pairs)
      var items: [String] = []
      for (index, pair) in sorted.prefix(maxItems).enumerated() {
        let rendered = format(pair.value, depth: depth + 1, visiting: &visiting, visits: &visits)
        if case .integer(let i) = pair.key, i == Int64(index) + 1 {
          items.append(rendered)
        } else if case .string(let s) = pair.key, let name = s.string, name.isLuaName {
          items.append("\(name) = \(rendered)")
        } else {
          items.append(
            "[\(format(pair.key, depth: depth + 1, visiting: &visiting, visits: &visits))] = \(rendered)"
          )
        }
      }
      if !complete {
        items.append("…")
      } else if sorted.count > maxItems {
        items.append("… (\(sorted.count - maxItems) more)")
      }
      return "{ " + items.joined(separator: ", ") + " }"
    default: return value.description
    }
  }

  /// Array part first (1, 2, …), then string keys sorted, then the rest by text.
  static func sortedPairs(_ pairs: [(key: LuaValue, value: LuaValue)]) -> [(
    key: LuaValue, value: LuaValue
  )] {
    func rank(_ key: LuaValue) -> (Int, Double, String) {
      switch key {
      case .integer(let i): (0, Double(i), "")
      case .number(let d): (0, d, "")
      case .string(let s): (1, 0, s.description)
      default: (2, 0, key.description)
      }
    }
    return pairs.sorted { rank($0.key) < rank($1.key) }
  }

  /// A Lua string literal for `s`, escaping quotes, control characters (C0, DEL, C1, line
  /// separators, bidirectional controls) and invalid UTF-8.
  static func quote(_ s: LuaString) -> String {
    var out = "\""
    if let text = s.string {
      for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\r": out += "\\r"
        default:
          // C0, DEL, C1, and the separators and bidirectional controls that break or
          // reorder a line on screen (shown raw, they did here: a CLI review).
          if scalar.value < 0x20 || scalar.value == 0x7F {
            out += "\\\(scalar.value)"
          } else if (0x80...0x9F).contains(scalar.value)
            || String.invisibleBreaks.contains(scalar.value)
          {
            out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
          } else {
            out.unicodeScalars.append(scalar)
          }
        }
      }
    } else {
      for byte in s.bytes {
        switch byte {
        case 0x22: out += "\\\""
        case 0x5C: out += "\\\\"
        case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(byte))
        default: out += "\\x" + String(byte, radix: 16, uppercase: false).leftPadded(to: 2)
        }
      }
    }
    return out + "\""
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
