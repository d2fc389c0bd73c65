import Foundation
import Lua
import LuaHost
import TestSupport
import Testing
import ViewTree

// Lua that loops (or waits for its state's lock while another of its actions loops) holds
// a thread of its state's own, never one of the cooperative pool's (one per core): other
// trees, other plugins and the host go on meanwhile. Before, two plugins whose timers
// looped held a two-core machine's pool, and the host's 0.1 s timer fired after 6 s.
@Suite(.timeLimit(.minutes(30))) struct BusyStateTests {  // a hang guard, as LuaExecutorTests
  @Test func treesWhoseActionsLoopLeaveEveryOtherTreeItsTurn() async throws {
    // Each tree's first action loops until every tree's has started: more than the pool
    // could run at once. Its second action waits for the state meanwhile.
    let gathering = Gathering(expected: moreThanThePool)
    let root = View.window(id: "root")
    let inbox = AlertInbox()
    root.environment.alertPresenter = inbox
    var trees: [ScriptedTree] = []
    for index in 0..<moreThanThePool {
      var sandbox = LuaSandbox()
      // A bound on a hang, not a stop: the loops end when every tree's has started, which
      // waits for the pool to start the others' timers (slow on a loaded machine).
      sandbox.timeout = .seconds(600)
      let panel = try root.add(View.stack(id: "panel\(index)"))
      let tree = try ScriptedTree(lua: LuaState(sandbox: sandbox), root: panel)
      try tree.withState { lua in
        try lua.register("arrive") { gathering.arrive() }
        try lua.register("everyone") { gathering.isComplete }
        try lua.run(
          """
          timer.after(0, function()
            timer.sleep(0) arrive() while not everyone() do end met = true
          end)
          timer.after(0, function() timer.sleep(0) waited = true end)
          """)
      }
      trees.append(tree)
    }
    for tree in trees { await tree.pendingWork.idle() }
    #expect(inbox.all.map(\.alert.message) == [])
    for tree in trees {
      #expect(try tree.run("return met, waited") == [true, true])
    }
  }

  @Test func pluginCallsThatLoopRunAtOnce() async throws {
    let gathering = Gathering(expected: moreThanThePool)
    let gate = try HostModule("gate") { lua in
      let module = try lua.makeTable()
      try module.set("arrive", .function(lua.function { () in gathering.arrive() }))
      try module.set("everyone", .function(lua.function { () in gathering.isComplete }))
      return .table(module)
    }
    var files: [String: String] = [:]
    for index in 0..<moreThanThePool {
      files["p\(index).lua"] = """
        local gate = require 'gate'
        function meet() gate.arrive() while not gate.everyone() do end return 'met' end
        """
    }
    let folder = try Luahost.temporaryFolder(files)
    let root = View.window(id: "root")
    let inbox = AlertInbox()
    root.environment.alertPresenter = inbox
    // A bound on a hang, not the default 10 s: the calls start on the cooperative pool,
    // which other suites' work may hold for long on a loaded machine.
    var limits = LuaSandbox()
    limits.timeout = .seconds(600)
    let host = PluginHost(container: root, limits: limits, modules: [gate]) { _ in }
    let loaded = host.loadAll(in: folder)
    #expect(loaded.allSatisfy { (try? $0.get()) != nil })
    let plugins = host.plugins.map(PluginBox.init)
    let results = await withTaskGroup(of: String?.self) { group in
      for box in plugins {
        group.addTask {
          let results = await box.plugin.call("meet")
          return results?.first.flatMap { try? String(luaValue: $0) }
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == moreThanThePool)
    #expect(results.allSatisfy { $0 == "met" })
    #expect(inbox.all.map(\.alert.message) == [])
    for plugin in host.plugins { try host.unload(plugin.name) }
  }

  @Test func aClosedPipeEndsLuahostFromATimerAsItEndsLua() throws {
    // The timers print on the executors' threads: a write to a closed pipe there ends the
    // process with SIGPIPE, as on the main thread, as `lua` does (they blocked every
    // signal at first, and luahost went on writing into the closed pipe).
    let script = try Luahost.temporaryFile(
      """
      local n = 0
      local function tick()
        for i = 1, 1000 do print(i) end
        n = n + 1
        if n < 200 then timer.after(0, tick) end
      end
      timer.after(0, tick)
      """)
    let result = try Luahost.run(
      [
        "-c", "\"$0\" \"$1\" | head -n 2; echo \"status ${PIPESTATUS[0]}\"",
        Luahost.executable.path, script,
      ],
      program: URL(fileURLWithPath: "/bin/bash"))
    #expect(result.stdout == "1\n2\nstatus 141\n", "\(result.stderr)")
  }
}

/// A plugin handed to a task (its calls take its state's lock).
struct PluginBox: @unchecked Sendable {
  let plugin: Plugin
}
