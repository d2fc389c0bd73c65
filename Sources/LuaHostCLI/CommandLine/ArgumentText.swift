#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Command-line words as Swift strings that keep every byte.
///
/// `lua` hands its words to scripts as bytes (`arg`, `...`, `-e` code, `-l` names, the
/// script's path), and a word need not be UTF-8: a file name from another system, a
/// Latin-1 argument. `CommandLine.arguments` repairs such bytes to U+FFFD, so a script
/// saw other bytes than it was given and a path that was not UTF-8 could not be opened.
/// Here a byte that is not part of valid UTF-8 becomes the private-use scalar
/// U+10FF00 + byte, so options still parse as strings, and ``bytes(of:)`` gives the bytes
/// back where they reach Lua or the file system. A word that holds such a scalar itself
/// (valid UTF-8 for U+10FF00...U+10FFFF) has its four bytes escaped one by one, so every
/// word round-trips exactly.
package enum ArgumentText {
  /// The first scalar of the escapes: byte `b` is `escapeBase + b`.
  static let escapeBase: UInt32 = 0x10_FF00

  /// The word whose bytes `cString` holds (NUL-terminated).
  package static func word(_ cString: UnsafePointer<CChar>) -> String {
    let length = strlen(cString)
    return cString.withMemoryRebound(to: UInt8.self, capacity: length) {
      word(UnsafeBufferPointer(start: $0, count: length))
    }
  }

  /// The word for `bytes`: valid UTF-8 as it is, other bytes escaped.
  package static func word(_ bytes: some Collection<UInt8>) -> String {
    var scalars = String.UnicodeScalarView()
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var rest = bytes[...]
    func escape(_ count: Int) {
      for byte in rest.prefix(count) {
        scalars.append(Unicode.Scalar(escapeBase + UInt32(byte))!)
      }
      rest = rest.dropFirst(count)
    }
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        let scalar = Unicode.UTF8.decode(encoded)
        if scalar.value >= escapeBase {
          escape(encoded.count)
        } else {
          scalars.append(scalar)
          rest = rest.dropFirst(encoded.count)
        }
      case .error(let length): escape(length)
      case .emptyInput: return String(scalars)
      }
    }
  }

  /// The bytes a word stands for.
  package static func bytes(of word: String) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(word.utf8.count)
    for scalar in word.unicodeScalars {
      if scalar.value >= escapeBase {
        bytes.append(UInt8(scalar.value - escapeBase))
      } else {
        bytes.append(contentsOf: String(scalar).utf8)
      }
    }
    return bytes
  }

  /// Whether the word holds bytes that are not UTF-8 (it cannot be passed on as a
  /// `String` without changing them).
  package static func hasEscapes(_ word: String) -> Bool {
    word.unicodeScalars.contains { $0.value >= escapeBase }
  }

  /// Whether the word's first byte is `-`, as `lua` tells an option from a script.
  /// (`String.hasPrefix` compares characters: `-` and a combining mark after it are one
  /// character, which is not `-`.)
  package static func isOption(_ word: String) -> Bool {
    word.unicodeScalars.first == "-"
  }

  /// The word split at its first `=` byte (`NAME=value`), or nil without one. (A
  /// character-wise search misses an `=` that a combining mark follows.)
  package static func split(atFirstEquals word: String) -> (name: String, value: String)? {
    let scalars = word.unicodeScalars
    guard let equals = scalars.firstIndex(of: "=") else { return nil }
    return (String(scalars[..<equals]), String(scalars[scalars.index(after: equals)...]))
  }

  /// The word for a message: bytes that are not UTF-8 shown as U+FFFD.
  package static func display(_ word: String) -> String {
    hasEscapes(word) ? String(decoding: bytes(of: word), as: UTF8.self) : word
  }
}
