/// JSON text for a string: quoted, with quotes, backslashes and control characters
/// escaped (RFC 8259), and also the C1 controls, the line and paragraph separators and the
/// bidirectional controls, so that a log read in a terminal shows what a plugin wrote, not
/// what it made the terminal draw; everything else is kept as it is.
package func jsonString(_ text: String) -> String {
  var out = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    default:
      let value = scalar.value
      if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
        || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
        || value == 0x200E || value == 0x200F || value == 0x061C
      {
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
  }
  return out + "\""
}
