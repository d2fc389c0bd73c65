import Lua
import LuaHost
import Testing
import ViewTree

/// Records what boundaries present, for assertions.
final class Recorder: AlertPresenter {
  var presented: [(alert: Alert, boundary: String)] = []
  func present(_ alert: Alert, boundary: View) { presented.append((alert, boundary.id)) }
}

/// A suite over a window scripted from a default sandbox, whose alerts a `Recorder` keeps.
protocol ScriptedWindowSuite {
  var root: View { get }
  var recorder: Recorder { get }
  var tree: ScriptedTree { get }
}

extension ScriptedWindowSuite {
  /// Gives `root` the recorder and scripts it.
  static func script(_ root: View, recordingWith recorder: Recorder) throws -> ScriptedTree {
    root.environment.alertPresenter = recorder
    return try ScriptedTree(lua: LuaState(sandbox: LuaSandbox()), root: root)
  }

  /// Runs `code` as the chunk `test`.
  @discardableResult
  func run(_ code: String) throws -> [LuaValue] { try tree.run(code, name: "=test") }
}

@Suite(.timeLimit(.minutes(30))) struct ScriptedTreeTests: ScriptedWindowSuite {
  let root = View.window(id: "root")
  let recorder = Recorder()
  let tree: ScriptedTree

  init() throws { tree = try Self.script(root, recordingWith: recorder) }

  @Test func nearestBoundaryWinsAtEveryDepth() throws {
    try run(
      """
      local outer = ui.root:add(ui.boundary{id = 'outer', title = 'Outer'})
      local a = outer:add(ui.stack{id = 'a'})
      local inner = a:add(ui.boundary{id = 'inner', title = 'Inner'})
      local parent = inner
      for i = 1, 10 do parent = parent:add(ui.stack{id = 'level' .. i}) end
      parent:add(ui.button{id = 'deep', on_tap = function() error('deep failure') end})
      a:add(ui.button{id = 'shallow', on_tap = function() error('shallow failure') end})
      ui.find('deep'):tap()
      ui.find('shallow'):tap()
      """)
    #expect(recorder.presented.map(\.boundary) == ["inner", "outer"])
    #expect(recorder.presented[0].alert.title == "Inner")
    #expect(recorder.presented[0].alert.message == "test:6: deep failure")
    #expect(recorder.presented[0].alert.path.hasSuffix("level10/deep"))
    #expect(recorder.presented[0].alert.sourceLocation == "test:6")
    #expect(recorder.presented[0].alert.traceback?.contains("stack traceback:") == true)
    #expect(recorder.presented[1].alert.message == "test:7: shallow failure")
  }

  @Test func shadowingAndUnshadowing() throws {
    try run(
      """
      outer = ui.root:add(ui.boundary{id = 'outer'})
      holder = outer:add(ui.stack{id = 'holder'})
      button = ui.button{id = 'b', on_tap = function() error('x') end}
      holder:add(button)
      button:tap()
      inner = ui.boundary{id = 'inner'}
      holder:add(inner)
      button:move(inner)
      button:tap()
      inner:remove()
      holder:add(button)
      button:tap()
      """)
    #expect(recorder.presented.map(\.boundary) == ["outer", "inner"])
    // The third tap repeats the first error at the same origin: outer counts it.
    #expect(try run("return outer.alert.count") == [2])
  }

  @Test func declineTransformEscalateAndFailingHandlers() throws {
    try run(
      """
      top = ui.root:add(ui.boundary{id = 'top'})
      local decliner = top:add(ui.boundary{id = 'decliner', on_error = function(err, view) return false end})
      decliner:add(ui.button{id = 'd', on_tap = function() error('declined', 0) end})
      local transformer = top:add(ui.boundary{id = 'transformer', on_error = function(err) return 'nicer: ' .. err end})
      transformer:add(ui.button{id = 't', on_tap = function() error('raw', 0) end})
      local escalator = top:add(ui.boundary{id = 'escalator', on_error = function(err) return false, {reason = err} end})
      escalator:add(ui.button{id = 'e', on_tap = function() error('up', 0) end})
      local broken = top:add(ui.boundary{id = 'broken', on_error = function() error('handler broke', 0) end})
      broken:add(ui.button{id = 'b', on_tap = function() error('original', 0) end})
      for _, id in ipairs{'d', 't', 'e', 'b'} do ui.find(id):tap() end
      """)
    let presented = recorder.presented.map { ($0.boundary, $0.alert.message) }
    #expect(presented.count == 2)
    #expect(presented[0] == ("top", "declined"))
    #expect(presented[1] == ("transformer", "nicer: raw"))
    let queued = try run(
      "local t = {} for i, a in ipairs(top.alerts) do t[i] = a.message end return table.concat(t, '|')"
    )
    let messages = try String(luaValue: queued[0]).split(separator: "|").map(String.init)
    #expect(messages.count == 3)
    // The escalated replacement is a table: its message is what tostring makes of it.
    #expect(messages[1].hasPrefix("table: 0x"))
    #expect(
      messages[2]
        == "the error handler at root/top/broken failed: handler broke (while handling: original)")
  }

  @Test func rootDefaultAndQueueing() throws {
    try run(
      """
      ui.root:add(ui.button{id = 'orphan', on_tap = function() error('nobody catches me', 0) end})
      ui.find('orphan'):tap()
      ui.find('orphan'):tap()
      ui.root:add(ui.button{id = 'other', on_tap = function() error('second', 0) end})
      ui.find('other'):tap()
      """)
    #expect(recorder.presented.count == 1)
    #expect(recorder.presented[0].alert.title == "Unhandled error")
    #expect(
      try run("return ui.root.alert.count, #ui.root.alerts, ui.root.alerts[2].message") == [
        2, 2, "second",
      ])
    #expect(
      try run("return ui.root:dismiss(), ui.root.alert.message, ui.root:dismiss(), ui.root.alert")
        == [true, "second", true, .nil])
    #expect(recorder.presented.count == 2)
  }

  @Test func errorValuesOfEveryKindShowSensibly() throws {
    try run(
      """
      g = ui.root:add(ui.boundary{id = 'g'})
      local values = {
        function() error({code = 1}) end,
        function() error(nil) end,
        function() error(setmetatable({}, {__tostring = function() return 'custom text' end})) end,
        function() error(setmetatable({}, {__tostring = function() error('bad tostring') end})) end,
        function() error(ui.root) end,
      }
      for i, f in ipairs(values) do g:add(ui.button{id = 'v' .. i, on_tap = f}) ui.find('v' .. i):tap() end
      """)
    let messages = try String(
      luaValue: run(
        "local t = {} for i, a in ipairs(g.alerts) do t[i] = a.message end return table.concat(t, '|')"
      )[0]
    )
    .split(separator: "|").map(String.init)
    #expect(messages.count == 5)
    #expect(messages[0] == "(error object is a table value)")
    #expect(messages[1] == "(error object is a nil value)")
    #expect(messages[2] == "custom text")
    #expect(messages[3].contains("__tostring failed"))
    #expect(messages[4] == "window#root")
  }

  /// `on_error` receives the value raised, as `pcall` gives it: `nil` and `false` too.
  @Test func onErrorReceivesTheValueRaisedNilIncluded() throws {
    let seen = try run(
      """
      local seen = {}
      local g = ui.root:add(ui.boundary{id = 'g', on_error = function(e)
        seen[#seen + 1] = e == nil and 'nil' or type(e) .. ':' .. tostring(e)
      end})
      for i, value in ipairs({'nil', 'false', '42', '"text"'}) do
        local raise = load('error(' .. value .. ', 0)')
        g:add(ui.button{id = 'b' .. i, on_tap = raise})
        ui.find('b' .. i):tap()
      end
      return table.concat(seen, '|')
      """)
    #expect(seen == ["nil|boolean:false|number:42|string:text"])
  }

  @Test func swiftActionsInLuaTreesAndSwiftErrors() throws {
    struct Broken: Error {}
    try run("g = ui.root:add(ui.boundary{id = 'g'}) g:add(ui.button{id = 'native'})")
    root.find("native")?.onTap = { _ in throw Broken() }
    try run("ui.find('native'):tap()")
    #expect(recorder.presented.first?.alert.message == "Broken()")
    #expect(recorder.presented.first?.boundary == "g")
  }

  @Test func pcallStillCatchesAndErrorHandlerRoutes() throws {
    try run("g = ui.root:add(ui.boundary{id = 'g'}) b = g:add(ui.button{id = 'b'})")
    #expect(try run("return pcall(error, 'caught')") == [false, "caught"])
    #expect(try run("return b.env.error_handler(function(x) return x * 2 end, 21)") == [true, 42])
    #expect(try run("return b.env.error_handler(function() error('routed', 0) end)") == [false])
    #expect(recorder.presented.first?.alert.message == "routed")
    #expect(recorder.presented.first?.alert.path == "root/g/b")
  }

  @Test func environmentIsInheritedAndShadowed() throws {
    let results = try run(
      """
      local a = ui.root:add(ui.stack{id = 'a'})
      local b = a:add(ui.stack{id = 'b'})
      ui.root.env.theme = 'dark'
      local before = b.env.theme
      a.env.theme = 'light'
      local shadowed = b.env.theme
      b:move(ui.root)
      local moved = b.env.theme
      a.env.theme = nil
      return before, shadowed, moved, a.env.theme, b.env.missing
      """)
    #expect(results == ["dark", "light", "dark", "dark", .nil])
  }

  /// A position out of range is named as the script gave it, counting from 1.
  @Test func positionsOutOfRangeAreNamedAsGiven() throws {
    let results = try run(
      """
      local a = ui.root:add(ui.stack{ id = 'a' })
      local c = ui.stack{ id = 'c' }
      local function message(...) return select(2, pcall(...)) end
      return message(ui.root.add, ui.root, c, -1), message(ui.root.add, ui.root, c, 0),
        message(ui.root.add, ui.root, c, 5), message(a.move, a, ui.root, math.mininteger),
        ui.root:add(c, 2).id, #ui.root.children
      """)
    #expect(
      results == [
        "position -1 is out of range 1...2", "position 0 is out of range 1...2",
        "position 5 is out of range 1...2",
        "position -9223372036854775808 is out of range 1...1", "c", 2,
      ])
  }

  @Test func viewRemovedWhileItsActionRuns() throws {
    try run(
      """
      g = ui.root:add(ui.boundary{id = 'g'})
      local b = g:add(ui.button{id = 'self-removing', on_tap = function(self) self:remove() error('after removal', 0) end})
      removed = b
      b:tap()
      """)
    // The error goes up the chain it was raised in, to the boundary the view was under
    // (it used to stay on the removed view, presented to no one).
    #expect(recorder.presented.count == 1)
    #expect(
      try run("return removed.alert, g.alert.title, g.alert.message") == [
        .nil, "Error", "after removal",
      ])
  }

  @Test func deepTreesFromLua() throws {
    // A workload that must finish: a deadline far past its 0.1 s, so a loaded machine (or
    // a wait for the tree lock behind another suite) cannot fail it.
    var sandbox = LuaSandbox()
    sandbox.timeout = .seconds(300)
    root.environment.alertPresenter = recorder
    let tree = try ScriptedTree(lua: LuaState(sandbox: sandbox), root: View.window(id: "deep"))
    let results = try tree.run(
      """
      local g = ui.root:add(ui.boundary{id = 'g'})
      local parent = g
      for i = 1, 997 do parent = parent:add(ui.stack{id = 'n' .. i}) end
      local leaf = parent:add(ui.button{id = 'leaf', on_tap = function() error('from the bottom', 0) end})
      leaf:tap()
      return leaf.depth, g.alert.message
      """, name: "=test")
    #expect(results == [999, "from the bottom"])
  }

  @Test func badArgumentsAreLuaErrors() throws {
    for (code, message) in [
      ("ui.root:add(42)", "bad child: view expected, got number"),
      ("ui.button{on_tap = 'not a function'}", "on_tap must be a function, got string"),
      ("ui.root:add(ui.root)", "cannot move ui.root"),
      ("ui.root.kind = 'x'", "cannot set read-only property 'kind' of View"),
    ] {
      let error = try #require(throws: LuaError.self, "\(code)") { try run(code) }
      #expect(error.kind == .runtime, "\(code)")
      #expect(error.message.contains(message), "\(code): \(error.message)")
    }
    #expect(try run("return ui.find('nothing')") == [.nil])
  }

  @Test func uiRootIsTheEndOfTheScriptsReach() throws {
    let app = View.window(id: "app")
    let panel = try app.add(.boundary(id: "panel"))
    let scoped = try ScriptedTree(lua: LuaState(sandbox: LuaSandbox()), root: panel)
    defer { scoped.lua.close() }
    func run(_ code: String) throws -> [LuaValue] { try scoped.run(code, name: "=scoped") }
    #expect(try run("return ui.root.parent, ui.root.path") == [.nil, "app/panel"])
    for (attempt, message) in [
      ("ui.root:remove()", "cannot remove ui.root"),
      ("ui.root:move(ui.stack())", "cannot move ui.root"),
      ("ui.stack():add(ui.root)", "cannot move ui.root"),
      ("ui.root.id = 'other'", "cannot rename ui.root"),
      ("ui.stack{children = {ui.root}}", "cannot move ui.root"),
    ] {
      let error = try #require(throws: LuaError.self, "\(attempt)") { try run(attempt) }
      #expect(error.kind == .runtime, "\(attempt)")
      #expect(error.message.contains(message), "\(attempt): \(error.message)")
    }
    #expect(panel.parent === app && panel.id == "panel")
    // Below the root, the script builds, moves and removes as it likes.
    #expect(
      try run(
        """
        local box = ui.root:add(ui.stack{id = 'box'})
        box:add(ui.text{id = 't'})
        ui.find('t'):move(ui.root)
        box:remove()
        return ui.find('t').parent == ui.root, ui.find('box')
        """) == [true, .nil])
  }
}

@Suite(.timeLimit(.minutes(30))) struct ScriptedTreeLifetimeTests {
  final class Probe {
    let onDeinit: () -> Void
    init(_ onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
  }

  @Test func closingTheStateFreesTheTree() throws {
    nonisolated(unsafe) var freed = 0
    weak var weakRoot: View?
    do {
      let root = View.window(id: "root")
      weakRoot = root
      let lua = try LuaState(sandbox: LuaSandbox())
      let tree = try ScriptedTree(lua: lua, root: root)
      try tree.withState { lua in
        try lua.register(Probe.self, name: "Probe") { _ in }
        try lua.globals().set("probe", lua.userdata(Probe { freed += 1 }))
      }
      try tree.run(
        """
        local g = ui.root:add(ui.boundary{id = 'g'})
        local p = probe
        g:add(ui.button{id = 'b', on_tap = function(self) local keep = {self, p} error('x') end})
        ui.find('b'):tap()
        probe = nil
        """)
      lua.close()
      _ = tree
    }
    #expect(freed == 1)
    #expect(weakRoot == nil)
  }
}

@Suite(.timeLimit(.minutes(30))) struct ScriptedModuleTests {
  @Test func uiIsReadOnlyEvenWithRawset() throws {
    let tree = try ScriptedTree(lua: LuaState(sandbox: LuaSandbox()), root: View.window(id: "root"))
    let raw = try #require(throws: LuaError.self) { try tree.run("rawset(ui, 'find', nil)") }
    #expect(raw.kind == .runtime)
    #expect(
      raw.message.contains("bad argument #1 to 'rawset' (table expected, got ui)"),
      "\(raw.message)")
    let error = try #require(throws: LuaError.self) { try tree.run("ui.find = nil") }
    #expect(error.kind == .runtime)
    #expect(error.message.contains("cannot set read-only property 'find' of ui"))
    #expect(try tree.run("return ui.find('root') == ui.root, type(ui)") == [true, "userdata"])
  }
}
