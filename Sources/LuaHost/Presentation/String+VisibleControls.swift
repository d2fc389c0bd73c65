extension String {
  /// The text with control characters shown as Lua escapes (`\0`, `\27`…), so that what a
  /// script chose (an error message, a test name) can neither cut a line short at a NUL,
  /// nor send escape sequences to the terminal, nor start a line of its own that forges
  /// output (a TAP `ok` line, another plugin's label). Newlines stay when `keepingNewlines`.
  package func visibleControls(keepingNewlines: Bool = true) -> String {
    guard
      unicodeScalars.contains(where: {
        ($0.value < 0x20 && $0 != "\t" && !(keepingNewlines && $0 == "\n")) || $0.value == 0x7F
      })
    else { return self }
    var out = String.UnicodeScalarView()
    for scalar in unicodeScalars {
      if (scalar.value < 0x20 && scalar != "\t" && !(keepingNewlines && scalar == "\n"))
        || scalar.value == 0x7F
      {
        out.append(contentsOf: "\\\(scalar.value)".unicodeScalars)
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }
}
