import ViewTree

/// Lays out alerts as text: a plain, deterministic form for pipes and transcripts, and a
/// box for terminals.
public enum AlertFormatter {
  /// The plain form:
  /// ```
  /// alert: Error
  ///   message: app.lua:7: boom
  ///   reason: …        (a LocalizedError's failureReason, if any)
  ///   suggestion: …    (its recoverySuggestion, if any)
  ///   view: root/guard/crash
  ///   source: app.lua:7
  ///   dismiss: That sucks
  /// ```
  /// Every string a script chose shows its control characters escaped.
  public static func plain(_ alert: Alert) -> String {
    let title = alert.title.visibleControls(keepingNewlines: false)
    var lines = ["alert: \(title)" + (alert.count > 1 ? " ×\(alert.count)" : "")]
    lines.append("  message: \(alert.message.visibleControls())")
    if let reason = alert.failureReason { lines.append("  reason: \(reason.visibleControls())") }
    if let suggestion = alert.recoverySuggestion {
      lines.append("  suggestion: \(suggestion.visibleControls())")
    }
    lines.append("  view: \(alert.path.visibleControls(keepingNewlines: false))")
    if let location = alert.sourceLocation {
      lines.append("  source: \(location.visibleControls(keepingNewlines: false))")
    }
    lines.append("  dismiss: \(alert.dismissLabel.visibleControls(keepingNewlines: false))")
    return lines.joined(separator: "\n")
  }

  /// A box no wider than `width` columns, with the dismiss button at the bottom right.
  public static func box(_ alert: Alert, width: Int = 72, bold: String = "", reset: String = "")
    -> String
  {
    let title =
      alert.title.visibleControls(keepingNewlines: false)
      + (alert.count > 1 ? " ×\(alert.count)" : "")
    var body = wrap(alert.message.visibleControls(), width: max(width - 4, 10))
    for extra in [alert.failureReason, alert.recoverySuggestion].compactMap({ $0 }) {
      body += wrap(extra.visibleControls(), width: max(width - 4, 10))
    }
    body.append("")
    body.append("view:   \(alert.path.visibleControls(keepingNewlines: false))")
    if let location = alert.sourceLocation {
      body.append("source: \(location.visibleControls(keepingNewlines: false))")
    }
    let button = "[ \(alert.dismissLabel.visibleControls(keepingNewlines: false)) ]"
    let inner = min(
      max(width - 4, 10), max(body.map(\.count).max() ?? 0, button.count, title.count + 2))
    func line(_ text: String) -> String {
      "│ " + text + String(repeating: " ", count: max(inner - text.count, 0)) + " │"
    }
    var out = [
      "╭─ " + bold + title + reset + " "
        + String(repeating: "─", count: max(inner - title.count - 1, 0)) + "╮"
    ]
    out += body.flatMap { wrap($0, width: inner) }.map(line)
    out.append(line(String(repeating: " ", count: inner - button.count) + button))
    out.append("╰" + String(repeating: "─", count: inner + 2) + "╯")
    return out.joined(separator: "\n")
  }

  /// Splits `text` into lines of at most `width` characters, at spaces where possible.
  static func wrap(_ text: String, width: Int) -> [String] {
    var result: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = ""
      for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
        var word = Substring(word)
        while word.count > width {
          if !line.isEmpty {
            result.append(line)
            line = ""
          }
          result.append(String(word.prefix(width)))
          word = word.dropFirst(width)
        }
        if line.isEmpty {
          line = String(word)
        } else if line.count + 1 + word.count <= width {
          line += " " + word
        } else {
          result.append(line)
          line = String(word)
        }
      }
      result.append(line)
    }
    return result
  }
}
