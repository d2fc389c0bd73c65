import Lua
import LuaHost
import Testing
import ViewTree

/// Item 6: the app decides each plugin's panel policy when it loads plugins, and a plugin
/// keeps it across reload.
@Suite(.timeLimit(.minutes(10))) struct Item06PluginPolicyTests {
  @Test func thePolicyGivesRetryAndResetAndSurvivesReload() async throws {
    let window = View.window(id: "app")
    let container = View.stack(id: "plugins")
    try window.add(container)
    window.environment.alertPresenter = RecordingAlertPresenter()
    let folder = try temporaryFolder([
      "notes.lua": "ui.root:add(ui.button{id = 'save', on_tap = function() error('full', 0) end})"
    ])
    let host = PluginHost(
      container: container, limits: patientLimits, output: { _ in },
      policy: { _ in PluginPolicy(offersRetry: true, offersReset: true, resetKeys: ["doc"]) })
    #expect(host.loadAll(in: folder).count == 1)
    let reloaded = try host.reload("notes")
    #expect(reloaded.policy.offersRetry && reloaded.policy.resetKeys == ["doc"])
    #expect(host.withTree { $0.find("notes")?.find("save")?.tap() } == false)  // it failed
    let labels = View.treeLock.withLock { reloaded.panel.alert?.actions.map(\.label) }
    #expect(labels == ["Try again", "Reset", "That sucks"])
    #expect(reloaded.panel.choose("Reset") == .reset)
    await host.idle()  // the restart runs in a task once the reset returns
    let restarted = try #require(host.plugin(named: "notes"))
    #expect(restarted !== reloaded && restarted.policy.offersReset)
  }
}
