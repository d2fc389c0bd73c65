import Foundation
import Lua
import LuaHost
import Testing
import ViewTree

/// `TreeLocked`: a model guarded by the tree lock, for sync views and async work, which
/// cannot be handed to another thread while `withValue` borrows it.
@Suite(.timeLimit(.minutes(30))) struct TreeLockedTests {
  @Test func threadsAndTasksTakeTurns() async throws {
    let counter = TreeLocked(0)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask { for _ in 0..<10_000 { counter.withValue { $0 += 1 } } }
      }
    }
    let done = DispatchGroup()
    for _ in 0..<2 {
      done.enter()
      Thread {
        for _ in 0..<10_000 { counter.withValue { $0 += 1 } }
        done.leave()
      }.start()
    }
    done.wait()
    #expect(counter.withValue { $0 } == 60_000)
  }

  @Test func runningLuaInsideWithValueStopsTheProcess() async {
    await #expect(processExitsWith: .failure) {
      let root = View.window(id: "root")
      let tree = try ScriptedTree(lua: LuaState(sandbox: LuaSandbox()), root: root)
      try tree.run("ui.root:add(ui.button{id = 'b', on_tap = function() end})")
      let model = TreeLocked(0)
      // The tap runs Lua, which sets the tree lock aside: refused, not a silent race.
      model.withValue { value in
        value += 1
        _ = root.find("b")?.tap()
      }
    }
  }

  @Test func swiftWorkInsideWithValueIsFine() throws {
    let root = View.window(id: "root")
    let button = try root.add(View.button("Count", id: "count") { _ in })
    let model = TreeLocked(0)
    // A Swift action runs no Lua: tapping it inside withValue is allowed.
    let tapped = model.withValue { value in
      value += 1
      return button.tap()
    }
    #expect(tapped)
    #expect(model.withValue { $0 } == 1)
  }
}
