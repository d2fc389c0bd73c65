import Lua
import LuaHost
import Testing
import ViewTree

/// Leaks the fuzzers found, each replayed in a way a plain (unsanitized) run can see.
@Suite(.timeLimit(.minutes(30))) struct LeakRegressionTests {
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
      try tree.run(
        """
        local b = ui.root:add(ui.button{id = 'b', on_tap = function(self) error(self) end})
        b:tap()
        """)
      tree.lua.close()
    }
    #expect(weakRoot == nil)
  }
}

/// Found by `scripts/fuzz tree` (`Fuzz/regressions/tree/leak-nested-tap-after-cycle-error`):
/// a tap that recursed to Lua's C-stack limit made a GC step run finalizers there; Lua
/// skipped them ("C stack overflow" inside the finalizer call only warns), so the Swift
/// objects behind those userdata were never released. The core now keeps its live boxes
/// and releases the ones Lua never handed back when the state closes.
@Suite(.timeLimit(.minutes(30))) struct SkippedFinalizerTests {
  final class Probe {
    let onDeinit: @Sendable () -> Void
    init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
  }

  @Test func objectsWhoseFinalizerLuaSkippedAreReleasedAtClose() throws {
    let counter = Counter()
    do {
      let lua = try LuaState()
      try lua.register("probe") { [unowned lua] _ in
        counter.created += 1
        return [try lua.userdata(Probe { counter.increment() })]
      }
      try lua.register("nest") { arguments in
        try LuaFunction(luaValue: arguments[0]).call(arguments: [arguments[0]])
      }
      // Recurse through Swift until the C-stack limit, creating garbage with finalizers at
      // every level so that GC steps run them near the limit. It must end in the C-stack
      // overflow (a runtime error), not succeed.
      let overflow = try #require(throws: LuaError.self) {
        try lua.run(
          """
          local function deep(self)
            for _ = 1, 20 do probe() end
            collectgarbage('step')
            return nest(self)
          end
          nest(deep)
          """)
      }
      #expect(overflow.message.contains("stack overflow"), "\(overflow.message)")
      lua.close()
    }
    #expect(counter.created > 100)
    #expect(counter.value == counter.created)
  }

  final class Counter: @unchecked Sendable {
    // @unchecked: touched only on the test's thread.
    var value = 0
    var created = 0
    func increment() { value += 1 }
  }
}
