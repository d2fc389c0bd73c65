extension String {
  /// Lua's reserved words, which no name can be.
  static let luaReservedWords: Set<String> = [
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if",
    "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
  ]

  /// Whether the string is a Lua name as the lexer reads one: ASCII letters, digits and
  /// `_`, not starting with a digit, and no reserved word. Such a key can be written
  /// `t.name`; any other needs `t["…"]`.
  package var isLuaName: Bool {
    guard let first = utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
    else { return false }
    return utf8.allSatisfy { byte in
      byte == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    } && !Self.luaReservedWords.contains(self)
  }
}
