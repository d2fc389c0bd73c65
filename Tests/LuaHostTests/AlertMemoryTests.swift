import Lua
import LuaHost
import Testing
import ViewTree

/// Alerts a script raises are paid for from its memory limit, all they keep included.
@Suite struct AlertMemoryTests {
  /// An alert whose message the limit cannot hold keeps it cut, and its error too: before,
  /// the error kept the whole message unpaid for (100 alerts of 3 MiB in a 32 MiB script
  /// peaked at 650 MB).
  @Test func anAlertCutForMemoryKeepsNoUncutErrorText() throws {
    let root = View.window(id: "root")
    var sandbox = LuaSandbox()
    sandbox.memoryLimit = 32 << 20
    sandbox.timeout = nil
    let tree = try ScriptedTree(lua: LuaState(sandbox: sandbox), root: root)
    _ = try tree.withState { lua in
      try lua.run(
        """
        local s = string.rep('x', 2000 * 1024)
        local g = ui.root:add(ui.boundary{ id = 'g' })
        local n = 0
        local b = g:add(ui.button{ id = 'b', on_tap = function() n = n + 1 error(n .. s, 0) end })
        for _ = 1, 40 do b:tap() end
        """, name: "=test")
    }
    let alerts = try #require(root.find("g")).alerts
    #expect(alerts.count == 40)
    let kept = alerts.reduce(0) { total, alert in
      let error = alert.error as? LuaError
      return total + alert.message.utf8.count + (error?.message.utf8.count ?? 0)
    }
    // Each cut alert keeps about 1 KiB twice; the ones kept whole fit the limit.
    #expect(kept < 2 * (32 << 20), "\(kept) bytes kept")
    #expect(alerts.last?.message.contains("more bytes not kept") == true)
    #expect((alerts.last?.error as? LuaError)?.message.utf8.count ?? .max < 2048)
  }
}
