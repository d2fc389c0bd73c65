import LuaHost
import ViewTree

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Lets the user pick a button of an alert box on a terminal: ← → or Tab (Shift-Tab back)
/// move the selection, Enter presses it, a digit presses that button at once, and `d`
/// shows the details (handler chain and traceback). The selection starts on the dismiss
/// button, so Enter alone dismisses, as before buttons existed.
struct AlertPicker {
  let alert: Alert
  let colors: Bool

  /// What the user did.
  enum Pick: Equatable {
    case button(Int)
    /// End of input: take the default.
    case end
  }

  /// Draws the box and reads keys until a button is picked.
  func run() -> Pick {
    var selected = alert.actions.count - 1
    draw(selected: selected)
    let count = alert.actions.count
    let raw = RawMode()
    defer { raw.restore() }
    var details = false
    while let key = readKey() {
      switch key {
      case .enter: return .button(selected)
      case .digit(let n) where n >= 1 && n <= count: return .button(n - 1)
      case .right, .tab: selected = (selected + 1) % count
      case .left, .backTab: selected = (selected + count - 1) % count
      case .details where !details:
        details = true
        write(
          "\r\u{1B}[K"
            + AlertFormatter.details(alert).split(separator: "\n").joined(
              separator: "\r\n") + "\r\n")
      default: continue
      }
      redrawHint(selected: selected)
    }
    return .end
  }

  private func draw(selected: Int) {
    let box = AlertFormatter.box(
      alert, bold: colors ? "\u{1B}[1;31m" : "", reset: colors ? "\u{1B}[0m" : "")
    write(box + "\n")
    redrawHint(selected: selected)
  }

  /// The line under the box: the buttons with the selected one marked, and the keys.
  private func redrawHint(selected: Int) {
    let keys =
      alert.actions.count > 1
      ? AlertFormatter.buttons(of: alert, selected: selected)
        + "  ←/→ Tab, 1-\(alert.actions.count), Enter · d: details"
      : "press Enter to dismiss · d: details"
    write("\r\u{1B}[K" + keys + " ")
  }

  private func write(_ text: String) {
    StandardStreams.out(text)
    StandardStreams.flush()
  }

  enum Key {
    case enter, tab, backTab, left, right, details
    case digit(Int)
    case other
  }

  /// One key from standard input, decoding the escape sequences of arrows and Shift-Tab.
  private func readKey() -> Key? {
    guard let byte = readByte() else { return nil }
    switch byte {
    case 0x0D, 0x0A: return .enter
    case 0x09: return .tab
    case UInt8(ascii: "d"), UInt8(ascii: "D"): return .details
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return .digit(Int(byte - UInt8(ascii: "0")))
    case 0x04: return nil  // Ctrl-D
    case 0x1B:
      guard readByte() == UInt8(ascii: "[") else { return .other }
      switch readByte() {
      case UInt8(ascii: "C"): return .right
      case UInt8(ascii: "D"): return .left
      case UInt8(ascii: "Z"): return .backTab
      default: return .other
      }
    default: return .other
    }
  }

  private func readByte() -> UInt8? {
    var byte: UInt8 = 0
    while true {
      let count = read(0, &byte, 1)
      if count == 1 { return byte }
      if count < 0 && errno == EINTR { continue }
      return nil
    }
  }
}

/// Standard input in raw mode (no echo, no line buffering) until ``restore()``.
private struct RawMode {
  private var saved = termios()
  private let active: Bool

  init() {
    var original = termios()
    guard tcgetattr(0, &original) == 0 else {
      active = false
      return
    }
    saved = original
    var raw = original
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON)
    raw.c_iflag &= ~tcflag_t(ICRNL)
    active = tcsetattr(0, TCSANOW, &raw) == 0
  }

  func restore() {
    guard active else { return }
    var original = saved
    tcsetattr(0, TCSANOW, &original)
  }
}
