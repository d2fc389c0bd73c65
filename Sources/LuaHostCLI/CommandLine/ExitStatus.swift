/// How `luahost` and `luahost test` end, as `lua` does: 0, 1 or 2.
package enum ExitStatus: Int32, Sendable {
  /// Everything ran (every test passed).
  case success = 0
  /// A script failed, an unhandled alert was raised, or a test failed.
  case failure = 1
  /// The command line was wrong: an unknown option, a missing argument, a file that
  /// cannot be read.
  case usage = 2
}
