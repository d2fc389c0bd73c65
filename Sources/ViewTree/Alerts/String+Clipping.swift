extension String {
  /// The text cut to its first `limit` bytes of UTF-8, ending with a whole Unicode scalar,
  /// then `note` of how many bytes were left out; the text itself when it fits.
  ///
  /// What every bounded text of the package goes through: alerts' texts, the REPL's tree,
  /// the error log's fields, `luahost test`'s results, a message cut for memory. It costs
  /// `limit`, not the text's length: a script's string can be hundreds of megabytes, and
  /// a cut at a `Character` would first have to find where a long cluster ends.
  package func clipped(
    toBytes limit: Int, note: (_ leftOut: Int) -> String = { "… (\($0) more bytes)" }
  ) -> String {
    let count = utf8.count
    guard count > limit else { return self }
    var end = utf8.index(utf8.startIndex, offsetBy: Swift.max(limit, 0))
    while end > utf8.startIndex, UTF8.isContinuation(utf8[end]) { utf8.formIndex(before: &end) }
    let kept = self[..<end]
    return kept + note(count - kept.utf8.count)
  }
}
