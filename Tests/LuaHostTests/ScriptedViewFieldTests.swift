import Lua
import LuaHost
import Testing
import ViewTree

/// The `ui` bridge's values, constructors and alert fields, seen from Lua: `set_value` and
/// `value =` with `on_change`, `ui.text_field`, `ui.group`, `ui.window`, `is_boundary`, and
/// the `unhandled`, `location` and `traceback` fields of `view.alert`.
@Suite(.timeLimit(.minutes(30))) struct ScriptedViewFieldTests: ScriptedWindowSuite {
  let root = View.window(id: "root")
  let recorder = Recorder()
  let tree: ScriptedTree

  init() throws { tree = try Self.script(root, recordingWith: recorder) }

  @Test func setValueRunsOnChangeWithTheNewValue() throws {
    try run(
      """
      log = {}
      field = ui.root:add(ui.text_field{id = 'name', on_change = function(self, value)
        log[#log + 1] = self.id .. '=' .. value .. '/' .. self.value
      end})
      """)
    #expect(try run("return field:set_value('Ada')") == [true])
    #expect(try run("return table.concat(log, ',')") == ["name=Ada/Ada"])
    #expect(root.find("name")?.value == "Ada")
    // The same value again is no change: on_change does not run.
    #expect(try run("return field:set_value('Ada'), #log") == [true, 1])
    #expect(
      try run("field:set_value('Grace') return table.concat(log, ',')") == [
        "name=Ada/Ada,name=Grace/Grace"
      ])
    #expect(recorder.presented.isEmpty)
  }

  /// A handler receives its own view first, as the same userdata the script holds, then
  /// the event's values, and nothing more (the view is pushed in place, not as a value).
  @Test func handlersReceiveTheirOwnViewAndTheirValuesOnly() throws {
    try run(
      """
      seen = {}
      button = ui.root:add(ui.button{id = 'b', on_tap = function(...)
        seen.tap = {select('#', ...), rawequal((...), button)}
      end})
      field = ui.root:add(ui.text_field{id = 'f', on_change = function(...)
        seen.change = {select('#', ...), rawequal((...), field), select(2, ...)}
      end})
      """)
    #expect(try #require(root.find("b")).tap())
    #expect(try run("return field:set_value('x')") == [true])
    #expect(
      try run("return seen.tap[1], seen.tap[2], seen.change[1], seen.change[2], seen.change[3]")
        == [1, true, 2, true, "x"])
    // Again, from Lua, while the first results are gone: the userdata is the cached one.
    #expect(try run("seen = {} button:tap() return seen.tap[1], seen.tap[2]") == [1, true])
  }

  @Test func assigningValueRunsOnChangeToo() throws {
    try run(
      """
      seen = {}
      field = ui.root:add(ui.text_field{id = 'f', value = 'start',
        on_change = function(self, value) seen[#seen + 1] = value end})
      field.value = 'next'
      field.value = 'next'
      field.value = 'last'
      """)
    #expect(try run("return table.concat(seen, ','), field.value") == ["next,last", "last"])
    #expect(root.find("f")?.value == "last")
  }

  @Test func aFailingOnChangeKeepsTheValueAndAlertsTheNearestBoundary() throws {
    try run(
      """
      guard = ui.root:add(ui.boundary{id = 'guard', title = 'Invalid'})
      field = guard:add(ui.text_field{id = 'age',
        on_change = function(self, value) error('not a number: ' .. value, 0) end})
      """)
    #expect(try run("return field:set_value('abc'), field.value") == [false, "abc"])
    #expect(recorder.presented.count == 1)
    #expect(recorder.presented.first?.boundary == "guard")
    #expect(recorder.presented.first?.alert.title == "Invalid")
    #expect(recorder.presented.first?.alert.message == "not a number: abc")
    #expect(recorder.presented.first?.alert.path == "root/guard/age")
  }

  @Test func textFieldConstructor() throws {
    #expect(
      try run(
        """
        local f = ui.text_field{id = 'email', title = 'Email', value = 'a@b.c'}
        return f.kind, f.id, f.title, f.value, f.text, f.is_boundary, f.parent
        """) == ["text_field", "email", "Email", "a@b.c", .nil, false, .nil])
    // With no spec it is named after its kind and starts empty.
    #expect(try run("local f = ui.text_field() return f.id, f.value") == ["text_field", ""])
    #expect(try run("return ui.text_field('by-name').id") == ["by-name"])
  }

  @Test func groupConstructorWithChildren() throws {
    #expect(
      try run(
        """
        local g = ui.root:add(ui.group{id = 'g', title = 'Group',
          children = {ui.text{id = 't1'}, ui.text_field{id = 't2'}}})
        local kids = g.children
        return g.kind, g.title, #kids, kids[1].id, kids[2].kind, kids[2].path, g.is_boundary
        """) == ["group", "Group", 2, "t1", "text_field", "root/g/t2", false])
    #expect(root.find("g")?.kind == .group)
    #expect(root.find("g")?.children.map(\.id) == ["t1", "t2"])
  }

  @Test func windowConstructorMakesADetachedWindow() throws {
    #expect(
      try run(
        """
        local w = ui.window{id = 'second', title = 'Second'}
        w:add(ui.stack{id = 'inside'})
        return w.kind, w.title, w.parent, w.path, w.depth, w:find('inside').path
        """) == ["window", "Second", .nil, "second", 0, "second/inside"])
    #expect(try run("return ui.root.kind") == ["window"])
  }

  @Test func isBoundaryFollowsKindAndOnError() throws {
    #expect(
      try run(
        """
        return ui.boundary().is_boundary, ui.stack().is_boundary, ui.button().is_boundary,
          ui.text().is_boundary, ui.button{on_error = function() end}.is_boundary
        """) == [true, false, false, false, true])
    // Setting on_error makes a view a boundary; clearing the handler leaves it one.
    #expect(
      try run(
        """
        local s = ui.stack()
        local before = s.is_boundary
        s.on_error = function() end
        local with = s.is_boundary
        s.on_error = nil
        return before, with, s.is_boundary
        """) == [false, true, true])
  }

  @Test func alertUnhandledIsTrueOnlyAtTheRootDefault() throws {
    try run(
      """
      g = ui.root:add(ui.boundary{id = 'g'})
      g:add(ui.button{id = 'caught', on_tap = function() error('caught', 0) end}):tap()
      ui.root:add(ui.button{id = 'stray', on_tap = function() error('stray', 0) end}):tap()
      """)
    #expect(
      try run(
        "return g.alert.unhandled, g.alert.title, ui.root.alert.unhandled, ui.root.alert.title")
        == [false, "Error", true, "Unhandled error"])
    #expect(try run("return type(g.alert.unhandled)") == ["boolean"])
  }

  @Test func alertLocationAndTracebackOfALuaError() throws {
    try run(
      """
      g = ui.root:add(ui.boundary{id = 'g'})
      local function fail() error('deep') end
      g:add(ui.button{id = 'b', on_tap = function() fail() end})
      ui.find('b'):tap()
      """)
    #expect(try run("return g.alert.location, g.alert.message") == ["test:2", "test:2: deep"])
    let traceback = try String(luaValue: run("return g.alert.traceback")[0])
    #expect(traceback.hasPrefix("stack traceback:\n"))
    #expect(traceback.contains("[C]: in function 'error'"))
    #expect(traceback.contains("test:2: in upvalue 'fail'"))
    #expect(traceback.contains("test:3: in function <test:3>"))
    // An action runs as a coroutine of its own (it may call async functions): its
    // traceback is the action's, not that of the code that tapped.
    #expect(!traceback.contains("in method 'tap'"))
  }

  @Test func aSwiftErrorHasNoLocationOrTraceback() throws {
    struct Refused: Error {}
    try run("g = ui.root:add(ui.boundary{id = 'g'}) g:add(ui.button{id = 'native'})")
    root.find("native")?.onTap = { _ in throw Refused() }
    try run("ui.find('native'):tap()")
    #expect(
      try run("return g.alert.message, g.alert.location, g.alert.traceback, g.alert.unhandled")
        == ["Refused()", .nil, .nil, false])
  }

  @Test func noAlertIsNil() throws {
    #expect(try run("return ui.root.alert, #ui.root.alerts") == [.nil, 0])
  }
}
