import Lua

extension PluginHost {
  /// The most of one `print` (or warning) of a plugin that the host's output shows: the
  /// first lines up to this many.
  public static let printedLineLimit = 1_000
  /// The most bytes of one `print` that the host's output shows, before escaping.
  public static let printedByteLimit = 64 * 1024

  /// Hands a plugin's printed `text` to `output`, a line at a time, each labelled
  /// `[label] `. Control characters and bytes that are not UTF-8 show as escapes (a
  /// carriage return could hide the label), so a plugin cannot print a line that looks
  /// like another plugin's.
  ///
  /// At most ``printedLineLimit`` lines and ``printedByteLimit`` bytes of one text are
  /// shown, then one line says how much was left out: the work and memory are the shown
  /// part's. Each line cost the host a string and a write of its own, unpolled and
  /// uncharged: one `print` of 20 MiB of newlines ran 28 s past a 10 s deadline and took
  /// 1.1 GB (a hostile review).
  static func writeLabelled(
    _ bytes: [UInt8], label: String, to output: (String) -> Void
  ) {
    var start = 0
    var lines = 0
    while true {
      let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
      let room = printedByteLimit - start
      // The empty line after a last newline is shown as it is, past the limit too: a note
      // that nothing more was left out would say less.
      let emptyLast = start == bytes.count
      guard (lines < printedLineLimit && end - start <= room) || emptyLast else {
        var cut = min(end, start + max(room, 0))
        // Cut on a character's boundary: the first bytes of a character cut in two read as
        // bytes the plugin did not print (`\226`).
        var back = 0
        while back < 3, cut > start, cut < bytes.count, bytes[cut] & 0xC0 == 0x80 {
          cut -= 1
          back += 1
        }
        if lines < printedLineLimit && cut > start {
          output("[\(label)] " + LuaString(bytes: bytes[start..<cut]).visibleText())
        }
        let left = bytes.count - (lines < printedLineLimit ? cut : start)
        output(
          "[\(label)] … \(left) more bytes not shown (a plugin's print shows at most "
            + "\(printedLineLimit) lines and \(printedByteLimit / 1024) KiB)")
        return
      }
      output("[\(label)] " + LuaString(bytes: bytes[start..<end]).visibleText())
      lines += 1
      guard end < bytes.count else { return }
      start = end + 1
    }
  }
}
