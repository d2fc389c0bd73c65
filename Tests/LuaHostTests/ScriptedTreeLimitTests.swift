import Lua
import LuaHost
import Testing
import ViewTree

/// What bounds the work one call from a script makes the tree do: how deep its views go,
/// and the stop checks of walks whose length the script chooses. Each verdict counts
/// levels or instructions, not time.
@Suite(.timeLimit(.minutes(30))) struct ScriptedTreeLimitTests: ScriptedWindowSuite {
  let root = View.window(id: "root")
  let recorder = Recorder()
  let tree: ScriptedTree

  init() throws {
    tree = try Self.script(root, recordingWith: recorder)
    // Building the trees must finish: a deadline far past what they take, so a loaded
    // machine (or a wait for the tree lock behind another suite) cannot fail them.
    try tree.withState { $0.timeout = .seconds(300) }
  }

  static let tooDeep =
    "cannot place the view there: it or a view inside it would be more than \(ScriptedTree.maximumDepth) levels deep"

  /// Every walk up from a view costs its depth, under the process-wide tree lock: a chain
  /// 380,000 views deep (the default sandbox's 256 MB) made each call on its deepest view
  /// take 35–95 ms, and a chain built from the top took quadratic time (20,000 adds: 42 s).
  @Test func chainsStopAtTheMaximumDepth() throws {
    let results = try run(
      """
      local v, n = ui.root, 0
      local ok, e = pcall(function() while true do v = v:add(ui.stack{}) n = n + 1 end end)
      -- Built from the bottom, each add puts a longer chain under a fresh view.
      local bottom = ui.stack{}
      local top, m = bottom, 0
      local ok2, e2 = pcall(function()
        while true do local p = ui.stack{} p:add(top) top = p m = m + 1 end
      end)
      return n, v.depth, e, m, bottom.depth, e2
      """)
    let limit = ScriptedTree.maximumDepth
    #expect(
      results == [
        .integer(Int64(limit)), .integer(Int64(limit)), .string(LuaString(Self.tooDeep)),
        .integer(Int64(limit)), .integer(Int64(limit)), .string(LuaString(Self.tooDeep)),
      ])
  }

  /// A subtree goes under a parent only if its deepest view stays within the limit; a move
  /// that puts it no deeper is always allowed, and a refused move changes nothing.
  @Test func aSubtreeMovesOnlyWhereItsDeepestViewFits() throws {
    let results = try run(
      """
      local function chain(top, n) local v = top for i = 1, n do v = v:add(ui.stack{}) end return v end
      local deep = chain(ui.root, 500)                      -- depth 500
      local sub = ui.stack{id = 'sub'}
      local subBottom = chain(sub, 500)                     -- 500 levels below sub
      local ok, e = pcall(deep.add, deep, sub)              -- would reach 1001
      local refused = sub.parent == nil and #deep.children == 0
      local fits = deep.parent:add(sub)                     -- reaches exactly 1000
      local atLimit = subBottom.depth
      ui.root:add(sub)                                      -- shallower: always allowed
      return e, refused, atLimit, subBottom.depth
      """)
    #expect(results == [.string(LuaString(Self.tooDeep)), true, 1000, 501])
  }

  /// A list of children is checked whole before any moves: a refused view left the views
  /// before it moved into the view being made, which the script then never got (a
  /// review).
  @Test func aRefusedChildLeavesTheListWhereItWas() throws {
    let results = try run(
      """
      local a = ui.root:add(ui.stack{ id = 'a' })
      local top = ui.stack{}
      for i = 1, 1000 do local p = ui.stack{} p:add(top) top = p end
      local ok, e = pcall(ui.stack, { children = { a, top } })
      return a.parent == ui.root, e
      """)
    #expect(results == [true, .string(LuaString(Self.tooDeep))])
  }

  /// The host resets a boundary holding only the tree lock, and places what `on_reset`
  /// returned: the depth check's walk of a view with 256 or more below it asked the state
  /// for a stop without its lock (a review: a usage error in a release build, a trap in a
  /// debug one).
  @Test func aResetFromTheHostPlacesALargeSubtree() throws {
    try run(
      """
      panel = ui.root:add(ui.boundary{ id = 'panel', reset_label = 'Start over',
        on_reset = function()
          local fresh = ui.stack{ id = 'fresh' }
          for i = 1, 300 do fresh:add(ui.text{}) end
          return fresh
        end })
      panel:add(ui.button{ id = 'old', on_tap = function() error('stale') end }):tap()
      """)
    let panel = try #require(root.find("panel"))
    #expect(panel.choose("Start over") == .reset)
    #expect(try run("return panel.children[1].id, #panel.children[1].children") == ["fresh", 300])
  }

  /// An id is at most `maximumIDLength` bytes: it is part of every path below it, which
  /// each alert from there carries. The length is checked before the string is converted.
  @Test func idsHaveAMaximumLength() throws {
    let limit = ScriptedTree.maximumIDLength
    let results = try run(
      """
      local fits = ui.root:add(ui.stack{id = ('x'):rep(\(limit))})
      local ok, e = pcall(ui.stack, {id = ('x'):rep(\(limit + 1))})
      local ok2, e2 = pcall(function() fits.id = ('y'):rep(1 << 20) end)
      return #fits.id, e, e2, #fits.path
      """)
    #expect(
      results == [
        .integer(Int64(limit)),
        .string(LuaString("bad view id: \(limit + 1) bytes long (at most \(limit))")),
        .string(LuaString("bad view id: \(1 << 20) bytes long (at most \(limit))")),
        .integer(Int64(limit + 5)),
      ])
  }

  /// Walks whose length the script chooses check for a stop, and charge each view they
  /// visit to the instruction budget as the sandbox's long C functions charge their steps:
  /// before, a hundred `find`s over 20,000 views cost the script's budget almost nothing.
  /// A stop that a walk sees cannot be caught by `pcall`.
  @Test(arguments: [
    "ui.find('nowhere')",
    "local _ = wide.children",
    "wide:move(other) wide:move(ui.root)",
  ])
  func walksChargeTheBudgetAndStop(_ step: String) throws {
    try run(
      """
      wide, other = ui.root:add(ui.stack{}), ui.root:add(ui.stack{})
      for i = 1, 20000 do wide:add(ui.stack{}) end
      """)
    try tree.withState { $0.instructionLimit = 1_000_000 }
    let error = try #require(throws: LuaError.self) {
      try run(
        """
        pcall(function() for i = 1, 100 do \(step) end end)
        caught = true
        """)
    }
    #expect(error.kind == .instructionLimit, "\(error)")
    try tree.withState { $0.instructionLimit = nil }
    #expect(try run("return caught") == [.nil])
  }
}
