import Lua
import LuaHost
import Testing
import ViewTree

/// Leaks the fuzzers found, each replayed in a way a plain (unsanitized) run can see.
@Suite struct LeakRegressionTests {
  final class Token {}
  final class Holder {}

  /// Found by `scripts/fuzz tree` on its first input (saved as
  /// `Fuzz/regressions/tree/leak-read-only-ui-getters`): every `ScriptedTree` leaked its
  /// Lua core. The read-only `ui` module registers property getters that capture Lua values;
  /// the core kept those getters after `close()`, and the values' references keep the core:
  /// a cycle. Closing now drops the getters.
  @Test func closingAStateFreesGettersThatCaptureLuaValues() throws {
    weak var weakToken: Token?
    do {
      let lua = try LuaState()
      let token = Token()
      weakToken = token
      let function = try lua.function { _ in [] }
      try lua.register(Holder.self, name: "Holder") { type in
        type.property("f", get: { _ in withExtendedLifetime(token) { .function(function) } })
      }
      lua.close()
    }
    #expect(weakToken == nil)
  }

  /// The same through the `ui` bridge: a closed scripted tree releases its views' actions.
  @Test func closingAScriptedTreeFreesItsActions() throws {
    weak var weakRoot: View?
    do {
      let root = View.window(id: "root")
      weakRoot = root
      let tree = try ScriptedTree(lua: LuaState(sandbox: LuaSandbox()), root: root)
      try tree.lua.run(
        """
        local b = ui.root:add(ui.button{id = 'b', on_tap = function(self) error(self) end})
        b:tap()
        """)
      tree.lua.close()
    }
    #expect(weakRoot == nil)
  }
}
