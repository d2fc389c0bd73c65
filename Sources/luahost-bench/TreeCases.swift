import CBenchBaseline
import Lua
import LuaHost
import ViewTree

/// Case 5: view-tree dispatch, in absolute time, with a breakdown.
struct TreeCases {
  let repetitions: Int
  let scale: Double

  func run() throws -> [Row] {
    let n = Int(Double(20_000) * scale)
    let root = View.window(id: "root")
    let tree = try ScriptedTree(lua: LuaState(sandbox: LuaSandbox()), root: root)
    try tree.run(
      """
      taps = 0
      local guard = ui.root:add(ui.boundary{id = 'guard', title = 'Error'})
      local parent = guard
      for i = 1, 10 do parent = parent:add(ui.stack{id = 'level' .. i}) end
      button = parent:add(ui.button{id = 'ok', on_tap = function(self) taps = taps + 1 end})
      crash = parent:add(ui.button{id = 'crash', on_tap = function(self) error('boom') end})
      """, name: "=tree")
    // As an app runs Lua on a tree's state: holding the state's lock (withState).
    return try tree.withState { _ in try measure(tree, root: root, n: n) }
  }

  private func measure(_ tree: ScriptedTree, root: View, n: Int) throws -> [Row] {
    let tapLoop = try tree.lua.load("for i = 1, \(n) do button:tap() end", name: "=tap")
    let crashLoop = try tree.lua.load("for i = 1, \(n / 10) do crash:tap() end", name: "=crash")
    let depthLoop = try tree.lua.load(
      "local d for i = 1, \(n) do d = button.depth end", name: "=depth")
    let emptyCall = try tree.lua.load("return function(self) end").call(returning: LuaFunction.self)
    guard let button = root.find("ok"), let crash = root.find("crash") else {
      throw BenchError("tree not built")
    }
    // The same tree shape with Swift actions: the tree alone, no Lua.
    let swiftRoot = View.window(id: "root")
    var parent = try swiftRoot.add(View.boundary(id: "guard"))
    for i in 1...10 { parent = try parent.add(View.stack(id: "level\(i)")) }
    struct Boom: Error {}
    let swiftButton = try parent.add(View.button("ok") { _ in })
    let swiftCrash = try parent.add(View.button("crash") { _ in throw Boom() })
    let buttonValue = try tree.lua.userdata(button)
    // The raw-C baseline of the property read: a C `__index` on a stored field.
    let C = cb_newstate()!
    defer { cb_close(C) }
    cb_register_view(C, Int64(button.depth))
    let cDepth = cb_ref_chunk(
      C, "return function() local d for i = 1, \(n) do d = button.depth end return d end")
    // The raw-C baseline of the tap: a C method that runs the action as a coroutine.
    let tapC = cb_newstate()!
    defer { cb_close(tapC) }
    let cAction = cb_ref_chunk(tapC, "taps = 0 return function(self) taps = taps + 1 end")
    cb_register_button(tapC, cAction)
    let cTaps = cb_ref_chunk(
      tapC, "return function() for i = 1, \(n) do button:tap() end return taps end")

    let medians = try Measure.interleaved(
      repetitions: repetitions,
      [
        { try Measure.perOp(n) { try tapLoop.call() } },
        { Measure.perOp(n) { for _ in 0..<n { blackHole(button.tap()) } } },
        { try Measure.perOp(n) { for _ in 0..<n { try emptyCall.call(buttonValue) } } },
        { try Measure.perOp(n) { try depthLoop.call() } },
        { Measure.perOp(n) { for _ in 0..<n { blackHole(swiftButton.tap()) } } },
        { try Measure.perOp(n / 10) { try crashLoop.call() } },
        { Measure.perOp(n / 10) { for _ in 0..<n / 10 { blackHole(crash.tap()) } } },
        { Measure.perOp(n / 10) { for _ in 0..<n / 10 { blackHole(swiftCrash.tap()) } } },
        { Measure.perOp(n) { blackHole(cb_call0(C, cDepth)) } },
        { Measure.perOp(n) { blackHole(cb_call0(tapC, cTaps)) } },
      ])
    return [
      Row(
        name: "5a. Lua `button:tap()` → tree → Lua action → back, vs a C method resuming it",
        ours: medians[0], baseline: medians[9], targetText: "≤ 500 ns", limit: 500),
      Row(name: "Swift `view.tap()` → Lua action (userdata arg)", ours: medians[1], isDetail: true),
      Row(name: "Swift→Lua call with the view's userdata", ours: medians[2], isDetail: true),
      Row(
        name: "5c. Lua→Swift view property read (`button.depth`) vs a C `__index`",
        ours: medians[3], baseline: medians[8], target: 3),
      Row(name: "tree only: Swift tap → Swift action", ours: medians[4], isDetail: true),
      Row(name: "5b. Lua `crash:tap()`: error 10 levels deep → boundary", ours: medians[5]),
      Row(name: "Swift `view.tap()` → Lua error → boundary", ours: medians[6], isDetail: true),
      Row(name: "tree only: Swift throw → boundary (×N count)", ours: medians[7], isDetail: true),
    ]
  }
}
