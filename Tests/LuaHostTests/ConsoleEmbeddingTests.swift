import Lua
import LuaHost
import Testing
import ViewTree

/// An app embeds the console over its own window.
@Suite(.timeLimit(.minutes(30))) struct ConsoleEmbeddingTests {
  let window = View.window(id: "app")
  let appPresenter = Recorder()
  let console: ReplSession

  init() throws {
    window.environment.alertPresenter = appPresenter
    try window.add(View.button("Crash", id: "crash") { _ in throw Described() })
    let window = self.window
    console = try ReplSession(
      makeState: { try LuaState(sandbox: LuaSandbox()) }, makeWindow: { window },
      components: [try .slider])
  }

  @Test func theConsoleScriptsTheAppsOwnTree() throws {
    #expect(console.submit("ui.root.id") == .output("\"app\""))
    #expect(
      console.submit("ui.root:add(ui.slider{ id = 's', max = 5 }).path") == .output("\"app/s\""))
    #expect(window.find("s")?.kind == ViewKind("slider"))
    #expect(console.submit("for i = 1,") == .incomplete)
    #expect(console.prompt == ">> ")
    #expect(console.submit("2 do end") == .output(""))
  }

  /// A front end that only prints replies (and never calls `drew`) can still choose: the
  /// session keeps the alert raised last itself (issue 24, bug 4).
  @Test func chooseAndDetailsWorkWithoutTheFrontEndsHelp() throws {
    #expect(console.submit(".details") == .error("no alert yet"))
    #expect(
      console.submit(
        "local b = ui.root:add(ui.boundary{ id = 'g' }) b:add(ui.button{ id = 'x', on_tap = function() error('boom') end }):tap()"
      ) == .output(""))
    guard case .output(let details) = console.submit(".details") else {
      Issue.record("no details")
      return
    }
    #expect(details.hasPrefix("handlers: g presented"), "\(details)")
    #expect(details.contains("in function 'error'"), "\(details)")
    #expect(console.submit(".choose 1") == .output("chose That sucks: dismissed"))
    #expect(window.find("g")?.alert == nil)
  }

  @Test func alertsReachBothTheConsoleAndTheAppsPresenter() throws {
    #expect(console.submit("ui.find('crash'):tap()") == .output("false"))
    #expect(console.takeAlerts().map(\.alert.message) == ["described in its own words"])
    #expect(appPresenter.presented.map(\.alert.message) == ["described in its own words"])
    // A reset over the same window neither loses the app's presenter nor doubles alerts.
    #expect(console.submit(".reset") == .output("fresh state and app tree"))
    window.dismissAll()
    #expect(console.submit("ui.find('crash'):tap()") == .output("false"))
    #expect(console.takeAlerts().count == 1)
    #expect(appPresenter.presented.count == 2)
  }
}
