import Testing
import ViewTree

/// `String.clipped(toBytes:note:)`, the one cut of every bounded text in the package.
@Suite(.timeLimit(.minutes(30))) struct TextClippingTests {
  /// At every limit, a text of one- to four-byte scalars (and a cluster of a base and
  /// combining marks) is cut to a prefix of at most the limit, at the end of a whole
  /// scalar, with the rest counted in the note; a text that fits comes back as it is.
  @Test func aCutKeepsAPrefixOfWholeScalarsAndCountsTheRest() {
    let text = "ab" + "é€𝄞" + "e\u{301}\u{302}" + "z"
    let count = text.utf8.count
    for limit in -1...(count + 1) {
      let cut = text.clipped(toBytes: limit) { "|\($0)" }
      if limit >= count {
        #expect(cut == text, "at \(limit)")
        continue
      }
      let parts = cut.split(separator: "|", omittingEmptySubsequences: false)
      #expect(parts.count == 2, "at \(limit): \(cut)")
      let kept = String(parts[0])
      #expect(text.utf8.starts(with: kept.utf8), "at \(limit)")
      #expect(kept.utf8.count <= max(limit, 0), "at \(limit)")
      // The next scalar would not have fitted: the cut is the longest it could be.
      let next = text.unicodeScalars.dropFirst(kept.unicodeScalars.count).first
      #expect(kept.utf8.count + (next.map { String($0).utf8.count } ?? 0) > limit, "at \(limit)")
      #expect(Int(parts[1]) == count - kept.utf8.count, "at \(limit)")
    }
  }

  /// The default note says how many bytes were left out; the alert's cut for memory says
  /// why, and leaves a message that fits alone.
  @Test func theNotesSayWhatWasLeftOut() {
    #expect("abcdef".clipped(toBytes: 4) == "abcd… (2 more bytes)")
    let limit = Alert.messageKeptOverTheLimit
    let long = String(repeating: "x", count: limit + 10)
    #expect(
      Alert.messageCutForMemory(long)
        == String(repeating: "x", count: limit)
        + "… (10 more bytes not kept: over the memory limit)")
    #expect(Alert.messageCutForMemory("short") == "short")
  }
}
