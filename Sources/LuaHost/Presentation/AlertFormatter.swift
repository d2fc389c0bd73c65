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
  ///   handlers: inner declined · outer presented   (if a boundary passed it on)
  ///   buttons: 1 Try again · 2 That sucks (default) (if there is more than one)
  ///   dismiss: That sucks
  /// ```
  /// Every string a script chose shows its control characters escaped, and at most
  /// ``textLimit`` bytes of it.
  public static func plain(_ alert: Alert) -> String {
    let title = alert.title.clipped().visibleControls(keepingNewlines: false)
    var lines = ["alert: \(title)" + (alert.count > 1 ? " ×\(alert.count)" : "")]
    lines.append(field("message", alert.message))
    if let reason = alert.failureReason { lines.append(field("reason", reason)) }
    if let suggestion = alert.recoverySuggestion { lines.append(field("suggestion", suggestion)) }
    lines.append("  view: \(alert.path.clipped().visibleControls(keepingNewlines: false))")
    if let location = alert.sourceLocation {
      lines.append("  source: \(location.clipped().visibleControls(keepingNewlines: false))")
    }
    if let chain = chain(of: alert) { lines.append("  handlers: \(chain)") }
    if alert.actions.count > 1 {
      let buttons = labels(of: alert).enumerated().map { "\($0.offset + 1) \($0.element)" }
      lines.append("  buttons: \(buttons.joined(separator: " · ")) (default)")
    }
    lines.append(
      "  dismiss: \(alert.dismissLabel.clipped().visibleControls(keepingNewlines: false))")
    return lines.joined(separator: "\n")
  }

  /// `  name: text`, with every further line of `text` indented under the first, so that no
  /// line of a script's text starts at the margin (where it could pass for a plugin's
  /// `[name] ` output or another alert).
  static func field(_ name: String, _ text: String) -> String {
    let indent = "\n" + String(repeating: " ", count: name.count + 4)
    return "  \(name): "
      + text.clipped().visibleControls().split(separator: "\n", omittingEmptySubsequences: false)
      .joined(separator: indent)
  }

  /// The handler chain, unless it only says that the first boundary presented the error
  /// (or that there was none: the title says "Unhandled error").
  public static func chain(of alert: Alert) -> String? {
    let steps = alert.handlerChain
    if steps.count == 1 && [.presented, .unhandled].contains(steps[0].decision) { return nil }
    return steps.isEmpty
      ? nil : steps.chainDescription.clipped().visibleControls(keepingNewlines: false)
  }

  /// The button labels, as shown.
  static func labels(of alert: Alert) -> [String] {
    alert.actions.map { $0.label.visibleControls(keepingNewlines: false) }
  }

  /// What `d` (details) shows: the handler chain and the traceback.
  public static func details(_ alert: Alert) -> String {
    var lines = ["handlers: \(alert.handlerChain.chainDescription)"]
    if let location = alert.sourceLocation { lines.append("source: \(location)") }
    lines.append(alert.traceback.map { "traceback:\n\($0)" } ?? "no traceback")
    return lines.joined(separator: "\n").visibleControls()
  }

  /// A box no wider than `width` columns, with the buttons at the bottom right, the dismiss
  /// button last; `selected` (an index into the alert's `actions`) is drawn as `[> label <]`.
  /// With more than one button, each shows its number.
  public static func box(
    _ alert: Alert, width: Int = 72, bold: String = "", reset: String = "", selected: Int? = nil
  ) -> String {
    let title =
      alert.title.clipped(toBytes: boxTextLimit).visibleControls(keepingNewlines: false)
      + (alert.count > 1 ? " ×\(alert.count)" : "")
    var body = wrap(clippedForBox(alert.message).visibleControls(), width: max(width - 4, 10))
    for extra in [alert.failureReason, alert.recoverySuggestion].compactMap({ $0 }) {
      body += wrap(clippedForBox(extra).visibleControls(), width: max(width - 4, 10))
    }
    body.append("")
    body.append("view:   \(clippedForBox(alert.path).visibleControls(keepingNewlines: false))")
    if let location = alert.sourceLocation {
      body.append("source: \(clippedForBox(location).visibleControls(keepingNewlines: false))")
    }
    if let chain = chain(of: alert) { body.append("handlers: \(chain)") }
    let button = buttons(of: alert, selected: selected)
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
    for row in wrap(button, width: inner) {
      out.append(line(String(repeating: " ", count: max(inner - row.count, 0)) + row))
    }
    out.append("╰" + String(repeating: "─", count: inner + 2) + "╯")
    return out.joined(separator: "\n")
  }

  /// The button row: `[ That sucks ]`, or `[1 Try again] [>2 That sucks<]`.
  package static func buttons(of alert: Alert, selected: Int?) -> String {
    let labels = labels(of: alert)
    guard labels.count > 1 else { return "[ \(labels.first ?? alert.dismissLabel) ]" }
    return labels.enumerated().map { index, label in
      index == selected ? "[>\(index + 1) \(label)<]" : "[\(index + 1) \(label)]"
    }.joined(separator: " ")
  }

  /// Splits `text` into lines of at most `width` characters, at spaces where possible.
  /// Linear in the text's length: a word longer than a line is cut by walking its indices
  /// once (counting a long `Substring` again for every line would be quadratic).
  static func wrap(_ text: String, width: Int) -> [String] {
    var result: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = ""
      var lineCount = 0
      for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
        var rest = Substring(word)
        // Whole lines cut from a word longer than a line.
        while let end = rest.index(rest.startIndex, offsetBy: width, limitedBy: rest.endIndex),
          end < rest.endIndex
        {
          if lineCount > 0 {
            result.append(line)
            line = ""
            lineCount = 0
          }
          result.append(String(rest[..<end]))
          rest = rest[end...]
        }
        let count = rest.count  // at most `width` here
        if lineCount == 0 && line.isEmpty {
          line = String(rest)
          lineCount = count
        } else if lineCount + 1 + count <= width {
          line += " " + rest
          lineCount += 1 + count
        } else {
          result.append(line)
          line = String(rest)
          lineCount = count
        }
      }
      result.append(line)
    }
    return result
  }

  /// The most bytes of a message a box shows; the rest is summed up in one line.
  static let boxTextLimit = 4096

  /// The most bytes of any one text of an alert (its message, title, path…) that either
  /// form shows; the rest is summed up in one line. Alerts are shown while the tree lock is
  /// held, and each byte costs its escaping: a 50 MB message held every other script's
  /// call into the tree for 3.4 s. The whole message stays in the alert and its error.
  public static let textLimit = 64 << 10

  /// `text`, cut to ``boxTextLimit`` bytes with a note of how much was left out.
  static func clippedForBox(_ text: String) -> String { text.clipped(toBytes: boxTextLimit) }
}

extension String {
  /// The text cut to ``AlertFormatter/textLimit`` bytes, as `clipped(toBytes:note:)` cuts.
  func clipped() -> String { clipped(toBytes: AlertFormatter.textLimit) }
}
