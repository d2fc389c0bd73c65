#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A name compared and hashed by its UTF-8 bytes, as Lua compares strings, with its hash
/// computed once. `String`'s own `==` and hashing follow Unicode canonical equivalence, so
/// "é" and "e\u{301}" are one name there, and text that is not in NFC costs about 70 ns a
/// character to compare or hash, again on every view a lookup walks (a hostile review:
/// one `env` read of a 1M-character name through 100 views took 6.9 s, past the deadline).
struct ByteName: Hashable {
  let text: String
  private let hashCode: Int

  init(_ text: String) {
    self.text = text
    var hasher = Hasher()
    var bytes = text
    bytes.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    hashCode = hasher.finalize()
  }

  func hash(into hasher: inout Hasher) { hasher.combine(hashCode) }

  static func == (a: ByteName, b: ByteName) -> Bool {
    a.hashCode == b.hashCode && a.text.hasSameBytes(as: b.text)
  }
}

extension String {
  /// Whether the two strings have the same UTF-8 bytes: Lua's equality, where `==` is
  /// Unicode's (canonical equivalence), which a script can make cost about 70 ns a
  /// character. Linear, at the speed of `memcmp`, for any text.
  package func hasSameBytes(as other: String) -> Bool {
    guard utf8.count == other.utf8.count else { return false }
    var a = self
    var b = other
    return a.withUTF8 { x in
      b.withUTF8 { y in
        x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0
      }
    }
  }
}
