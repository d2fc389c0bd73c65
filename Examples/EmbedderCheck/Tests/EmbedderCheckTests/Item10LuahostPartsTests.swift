import Foundation
import Lua
import LuaHost
import Testing
import ViewTree

/// Item 10: an app can do what `luahost` does, with public API.
@Suite(.timeLimit(.minutes(5))) struct Item10LuahostPartsTests {
  @Test func awaitAPluginRunAWaitingMainChunkAndLogErrors() async throws {
    let window = View.window(id: "app")
    let container = View.stack(id: "plugins")
    try window.add(container)
    window.environment.alertPresenter = RecordingAlertPresenter()
    let log = try temporaryFolder([:]) + "/errors.jsonl"
    try FileManager.default.createDirectory(
      atPath: (log as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let writer = try ErrorLogWriter(path: log)
    window.environment.errorLog = writer.log
    let folder = try temporaryFolder([
      "stats.lua": "function total(n) timer.sleep(0.01) return n * 2 end",
      "broken.lua": "error('broken on purpose', 0)",
    ])
    let host = PluginHost(container: container, limits: patientLimits, output: { _ in })
    #expect(host.loadAll(in: folder).count == 2)
    // await plugin.call
    #expect(await host.plugin(named: "stats")?.call("total", 21) == [42])
    // A main chunk that waits, on the app's own tree.
    let tree = try ScriptedTree(lua: LuaState(sandbox: patientLimits), root: window)
    let chunk = try tree.withState { try $0.load("timer.sleep(0.01) return ...") }
    #expect(try await tree.run(chunk, arguments: ["done"], asMainChunk: true) == ["done"])
    // The JSON-lines log says which plugin failed.
    let text = try String(contentsOfFile: log, encoding: .utf8)
    #expect(text.contains("\"plugin\":\"broken\""), "\(text)")
    // One rule for states: withState, as for the tree.
    let session = try ReplSession(
      makeState: { try LuaState(sandbox: patientLimits) }, makeWindow: { window })
    _ = session.submit("x = 41")
    #expect(try session.withState { try $0.run("return x + 1") } == [42])
  }
}
