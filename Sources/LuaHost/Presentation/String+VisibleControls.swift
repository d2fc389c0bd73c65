import Lua

extension String {
  /// The text with control characters shown as Lua escapes (`\0`, `\27`, `\u{9B}`…), so
  /// that what a script chose (an error message, a test name) can neither cut a line short
  /// at a NUL, nor send escape sequences to the terminal (C0, DEL and the C1 controls,
  /// which some terminals obey as `ESC [`), nor start a line of its own that forges output
  /// (a TAP `ok` line, another plugin's label; also U+2028 and U+2029, where viewers break
  /// lines, and the bidirectional controls, which reorder a line on screen). Newlines stay
  /// when `keepingNewlines`.
  package func visibleControls(keepingNewlines: Bool = true) -> String {
    func isControl(_ scalar: Unicode.Scalar) -> Bool {
      (scalar.value < 0x20 && scalar != "\t" && !(keepingNewlines && scalar == "\n"))
        || (0x7F...0x9F).contains(scalar.value) || Self.invisibleBreaks.contains(scalar.value)
    }
    guard unicodeScalars.contains(where: isControl) else { return self }
    // Built as UTF-8 bytes: `UnicodeScalarView.append(contentsOf:)` copied the whole text
    // on every call, so a message of 200 KB of ESC took 7.5 s to show (a hostile review).
    var out: [UInt8] = []
    out.reserveCapacity(utf8.count + utf8.count / 4)
    for scalar in unicodeScalars {
      if isControl(scalar) {
        let escape =
          scalar.value < 0x80
          ? "\\\(scalar.value)" : "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        out.append(contentsOf: escape.utf8)
      } else {
        out.append(contentsOf: UTF8.encode(scalar)!)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Line and paragraph separators (a viewer may break a line there, with no label after)
  /// and the bidirectional overrides and isolates (which reorder what follows on screen).
  static let invisibleBreaks: Set<UInt32> = [
    0x2028, 0x2029, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
  ]
}

extension LuaString {
  /// The bytes as text to show: valid UTF-8 as it is, every byte that is not as a Lua
  /// escape (`\255`), and control characters as ``Swift/String/visibleControls(keepingNewlines:)``
  /// shows them. Nothing is replaced by U+FFFD, so no byte is lost from view, and no raw
  /// byte reaches a terminal that could read it as a control.
  package func visibleText(keepingNewlines: Bool = true) -> String {
    if let text = string { return text.visibleControls(keepingNewlines: keepingNewlines) }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + bytes.count / 4)
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var position = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        out.append(contentsOf: encoded)
        position += encoded.count
      case .error(let length):
        for byte in bytes[position..<position + length] {
          out.append(contentsOf: "\\\(byte)".utf8)
        }
        position += length
      case .emptyInput:
        return String(decoding: out, as: UTF8.self).visibleControls(
          keepingNewlines: keepingNewlines)
      }
    }
  }
}
