import Foundation
import Lua
import LuaHost
import TestSupport
import Testing
import ViewTree

/// The app decides each plugin's panel policy (issue 24, item 6): Try again, Reset, reset
/// keys, limits and capabilities, per plugin, kept across reload and reset.
@Suite(.timeLimit(.minutes(30))) struct PluginPolicyTests {
  let root: View
  let container: View
  let recorder: RecordingAlertPresenter

  init() throws { (root, container, recorder) = try pluginWindow() }

  /// Limits for work that must finish: a bound, not a stop.
  static var limits: LuaSandbox {
    var limits = LuaSandbox()
    limits.timeout = .seconds(60)
    return limits
  }

  /// A plugin whose button fails, and which counts its starts in `starts` (a Swift
  /// function the test registers through a module would do too; a print is enough).
  static let failing = """
    print('started')
    ui.root:add(ui.button{id = 'boom', on_tap = function() error('it broke', 0) end})
    """

  func labels(of plugin: Plugin?) -> [String] {
    View.treeLock.withLock { plugin?.panel.alert?.actions.map(\.label) ?? [] }
  }

  @Test func theHostsPolicyDecidesEachPanelsButtons() throws {
    let folder = try Luahost.temporaryFolder([
      "plain.lua": Self.failing, "retrying.lua": Self.failing,
    ])
    let host = PluginHost(
      container: container, limits: Self.limits, output: { _ in },
      policy: { manifest in
        manifest.name == "retrying"
          ? PluginPolicy(title: "Retrying broke", offersRetry: true, offersReset: true)
          : PluginPolicy()
      })
    #expect(host.loadAll(in: folder).count == 2)
    for name in ["plain", "retrying"] {
      #expect(host.withTree { $0.find(name)?.find("boom")?.tap() } == false)  // it failed
    }
    #expect(labels(of: host.plugin(named: "plain")) == ["That sucks"])
    #expect(labels(of: host.plugin(named: "retrying")) == ["Try again", "Reset", "That sucks"])
    let titles = recorder.presented.map(\.title).sorted()
    #expect(titles == ["Error in plugin plain", "Retrying broke"])
  }

  @Test func aPolicyIsKeptAcrossReload() throws {
    let path = try Luahost.temporaryFolder(["clock/init.lua": Self.failing]) + "/clock"
    let host = PluginHost(container: container, limits: Self.limits, output: { _ in })
    let first = try host.load(path: path, policy: PluginPolicy(title: "Clock", offersRetry: true))
    let second = try host.reload("clock")
    #expect(first !== second)
    #expect(second.policy.title == "Clock")
    #expect(host.withTree { $0.find("clock")?.find("boom")?.tap() } == false)  // it failed
    #expect(labels(of: second) == ["Try again", "That sucks"])
    #expect(recorder.presented.last?.title == "Clock")
  }

  @Test func resetRestartsThePluginInItsPlace() async throws {
    let folder = try Luahost.temporaryFolder([
      "a.lua": "ui.root:add(ui.text{id = 't', text = 'a'})", "b.lua": Self.failing,
      "c.lua": "ui.root:add(ui.text{id = 't', text = 'c'})",
    ])
    let lines = LockedValue<[String]>([])
    let host = PluginHost(
      container: container, limits: Self.limits,
      output: { line in lines.withLock { $0.append(line) } },
      policy: { _ in PluginPolicy(offersReset: true) })
    #expect(host.loadAll(in: folder).count == 3)
    let old = try #require(host.plugin(named: "b"))
    #expect(host.withTree { $0.find("b")?.find("boom")?.tap() } == false)  // it failed
    #expect(old.panel.choose("Reset") == .reset)
    await host.idle()  // the restart runs in a task once the reset returns
    let new = try #require(host.plugin(named: "b"))
    #expect(new !== old && !old.isLoaded && new.isLoaded)
    // In its place, with its views built again by a fresh run of its code, and no alert.
    #expect(host.withTree { $0.children.map(\.id) } == ["a", "b", "c"])
    #expect(host.withTree { $0.find("b")?.find("boom") } != nil)
    #expect(View.treeLock.withLock { new.panel.alert } == nil)
    #expect(lines.withLock { $0 } == ["[b] started", "[b] started"])
    #expect(new.policy.offersReset)
  }

  @Test func aResetKeyRestartsAFailedPlugin() async throws {
    let path = try Luahost.temporaryFile(Self.failing)
    let host = PluginHost(container: container, limits: Self.limits, output: { _ in })
    let old = try host.load(
      path: path, policy: PluginPolicy(offersReset: true, resetKeys: ["document"]))
    let name = old.name
    // No alert up: changing the key does nothing.
    root.environment[named: "document"] = "first"
    #expect(host.plugin(named: name) === old)
    #expect(host.withTree { $0.find(name)?.find("boom")?.tap() } == false)  // it failed
    root.environment[named: "document"] = "second"
    await host.idle()
    let new = try #require(host.plugin(named: name))
    #expect(new !== old)
    #expect(View.treeLock.withLock { new.panel.alert } == nil)
  }

  @Test func aPolicysLimitsAndCapabilitiesReplaceTheHosts() throws {
    let folder = try Luahost.temporaryFolder([
      "wants_io/manifest.lua": "return { name = 'wants_io', capabilities = { 'io' } }",
      "wants_io/init.lua": "assert(io.write)",
      "hungry.lua": "local t = {} for i = 1, 1e6 do t[i] = ('x'):rep(64) .. i end",
    ])
    var small = Self.limits
    small.memoryLimit = 1 << 20
    let host = PluginHost(
      container: container, allowed: [], limits: Self.limits, output: { _ in },
      policy: { manifest in
        manifest.name == "wants_io" ? PluginPolicy(allowed: ["io"]) : PluginPolicy(limits: small)
      })
    let results = host.loadAll(in: folder)
    #expect(results.count == 2)
    for case .failure(let error) in results { Issue.record("\(error)") }
    // The hungry plugin ran out of its policy's 1 MiB: an alert on its panel.
    #expect(
      View.treeLock.withLock { host.plugin(named: "hungry")?.panel.alert?.message }
        == "not enough memory")
    #expect(View.treeLock.withLock { host.plugin(named: "wants_io")?.panel.alert } == nil)
    // Without the policy's consent the host's own (none) refuses it.
    let strict = PluginHost(container: View.stack(id: "strict"), output: { _ in })
    guard case .failure(.capabilitiesNotAllowed) = strict.loadAll(in: folder).last else {
      Issue.record("wants_io loaded without consent")
      return
    }
  }

  /// A plugin cannot restart itself (it could do so for ever, each restart nested in the
  /// last): not by pressing its panel's Reset, not through a reset key it sets, and it
  /// cannot replace the panel's filter or reset either.
  @Test func aPluginCannotResetOrReconfigureItsOwnPanel() async throws {
    let lines = LockedValue<[String]>([])
    let path = try Luahost.temporaryFile(
      """
      print('started')
      ui.root.env.error_handler(function() error('x', 0) end)
      local alert = ui.root.alert
      local pressed, why = pcall(alert.choose, alert, 'Reset')
      print(pressed, why)
      print(pcall(function() ui.root.on_error = function() return false end end))
      print(pcall(function() ui.root.on_reset = function() end end))
      ui.root.env.document = 'mine'
      """)
    let host = PluginHost(
      container: container, limits: Self.limits,
      output: { line in lines.withLock { $0.append(line) } },
      policy: { _ in PluginPolicy(offersReset: true, resetKeys: ["document"]) })
    let plugin = try host.load(path: path)
    await host.idle()
    #expect(host.plugin(named: plugin.name) === plugin)
    let printed = lines.withLock { $0 }
    #expect(printed.count == 4, "\(printed)")
    #expect(printed.filter { $0.hasSuffix("started") }.count == 1)
    #expect(printed.dropFirst().allSatisfy { $0.contains("false") && $0.contains("host") })
  }

  @Test func aStaleAlertDoesNotRestartANewerInstance() async throws {
    let path = try Luahost.temporaryFile(Self.failing)
    let host = PluginHost(
      container: container, limits: Self.limits, output: { _ in },
      policy: { _ in PluginPolicy(offersReset: true) })
    let old = try host.load(path: path)
    #expect(host.withTree { $0.find(old.name)?.find("boom")?.tap() } == false)
    let stale = try #require(View.treeLock.withLock { old.panel.alert })
    let newer = try host.reload(old.name)
    _ = old.panel.choose("Reset", of: stale)
    await host.idle()
    #expect(host.plugin(named: old.name) === newer)
  }

  @Test func aRestartThatFailsIsReportedAtTheHost() async throws {
    let folder = try Luahost.temporaryFolder(["notes/init.lua": Self.failing])
    let host = PluginHost(
      container: container, limits: Self.limits, output: { _ in },
      policy: { _ in PluginPolicy(offersReset: true) })
    let plugin = try host.load(path: folder + "/notes")
    #expect(host.withTree { $0.find("notes")?.find("boom")?.tap() } == false)
    try FileManager.default.removeItem(atPath: folder + "/notes/init.lua")
    #expect(plugin.panel.choose("Reset") == .reset)
    await host.idle()
    #expect(host.plugin(named: "notes") == nil)
    let message = View.treeLock.withLock { root.alert?.message ?? "" }
    #expect(message.hasPrefix("plugin notes could not be restarted, and is unloaded"), "\(message)")
  }
}
