import Foundation
import TestSupport
import Testing

/// A stop from another thread travels as a SIGSYS marked as the host's own (see
/// lh_deliver.c). Any other SIGSYS keeps its meaning: here the default action, which ends
/// the process, as it would without the host.
@Suite(.timeLimit(.minutes(30))) struct SignalForwardingTests {
  /// A build for ThreadSanitizer installs no handler (it polls for stops instead), and
  /// the sanitizer takes a SIGSYS as its own fault: nothing of the host's to check there.
  @Test(.disabled(if: Sanitizers.threadSanitizer, "no handler of the host's under TSan"))
  func aSIGSYSThatIsNotTheHostsEndsTheProcessAsBefore() throws {
    // In a folder of its own: the default action may write a core file where it runs.
    let folder = try Luahost.temporaryFolder(["README": "a core file may land here\n"])
    let child = try LuahostChild(
      ["-e", "print('looping') while true do end"], directory: folder)
    #expect(child.waitFor("looping"))
    kill(child.processIdentifier, SIGSYS)
    let status = try child.finish()
    #expect(child.endedBySignal)
    #expect(status == SIGSYS)
  }
}
