import Lua
import LuaHost
import Testing
import ViewTree

/// Item 4: a console front end that only prints replies can `.choose` and `.details`: the
/// session keeps the alerts it raised itself.
@Suite(.timeLimit(.minutes(10))) struct Item04ConsoleAlertsTests {
  @Test func chooseAndDetailsNeedNoHelpFromTheFrontEnd() throws {
    let session = try ReplSession(
      makeState: { try LuaState(sandbox: patientLimits) },
      makeWindow: { View.window(id: "app") })
    let crash =
      "ui.root:add(ui.boundary{ id = 'g' }):add(ui.button{ id = 'x', on_tap = function() error('boom') end }):tap()"
    #expect(session.submit(crash) == .output("false"))  // the tap failed
    guard case .output(let details) = session.submit(".details") else {
      Issue.record("no details")
      return
    }
    #expect(details.contains("in function 'error'"), "\(details)")
    #expect(session.submit(".choose 1") == .output("chose That sucks: dismissed"))
  }
}
