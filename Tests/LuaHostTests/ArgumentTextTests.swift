import LuaHostCLI
import Testing

/// Command-line words keep their bytes through `String` (`ArgumentText`): every byte
/// sequence comes back as it went in, and UTF-8 stays the same text.
@Suite struct ArgumentTextTests {
  @Test func everyByteSequenceRoundTrips() {
    // Bytes that make every case: ASCII, continuation bytes, lead bytes of each length,
    // overlongs, surrogates' encodings, and the encoding of the escapes' own range.
    let alphabet: [UInt8] = [
      0x00, 0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0x8F, 0xBC,
      0xF5, 0xFF, 0xA0,
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      let bytes = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
        alphabet.randomElement(using: &generator)!
      }
      #expect(ArgumentText.bytes(of: ArgumentText.word(bytes)) == bytes, "\(bytes)")
    }
  }

  @Test func utf8IsKeptAsTextAndOtherBytesAreEscaped() {
    for text in ["", "plain", "héllo wörld", "日本語", "🙂", "\u{10FEFF}"] {
      #expect(ArgumentText.word(Array(text.utf8)) == text)
      #expect(!ArgumentText.hasEscapes(text))
    }
    let latin1 = ArgumentText.word([0x63, 0x61, 0x66, 0xE9])  // "café" in Latin-1
    #expect(ArgumentText.hasEscapes(latin1))
    #expect(latin1.hasPrefix("caf"))
    #expect(ArgumentText.display(latin1) == "caf\u{FFFD}")
    // A scalar of the escapes' own range, given as UTF-8, is escaped byte by byte.
    let own: [UInt8] = [0xF4, 0x8F, 0xBC, 0x80]
    #expect(ArgumentText.word(own).unicodeScalars.count == 4)
    #expect(ArgumentText.bytes(of: ArgumentText.word(own)) == own)
  }
}
