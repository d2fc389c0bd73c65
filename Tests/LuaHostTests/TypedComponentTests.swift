import Lua
import LuaHost
import TestSupport
import Testing
import ViewTree

/// The Swift state behind a meter: a level, named marks, and counts per mark.
final class MeterModel {
  var level = 0.0
  var marks: [String] = []
  var counts: [String: Int] = [:]
}

extension ScriptedComponent {
  /// `ui.meter{}`, declared with the typed API only: Swift values in and out, no
  /// `LuaValue` by hand (issue 24, item 8).
  static var meter: ScriptedComponent {
    get throws {
      var meter = try ScriptedComponent("meter") { spec in
        let view = View(id: try spec.id ?? "meter", kind: ViewKind("meter"))
        view.model = MeterModel()
        return view
      }
      func model(_ view: View) -> MeterModel { view.model(as: MeterModel.self)! }
      meter.property(
        "level", get: { model($0).level },
        set: { view, level in
          model(view).level = level
          view.send("on_change", [.number(level)])
        })
      // Backed by the view's own properties: PropertyValue converts both ways.
      meter.property(
        "label", get: { $0.properties["label"] }, set: { $0.properties["label"] = $1 })
      meter.property("marks", get: { model($0).marks })
      meter.property("counts", get: { model($0).counts })
      meter.method("mark") { (view: View, name: String, times: Int) in
        for _ in 0..<times { model(view).marks.append(name) }
        model(view).counts[name, default: 0] += times
        return model(view).marks.count
      }
      meter.method("clear") { (view: View) in model(view).marks.removeAll() }
      meter.method("bounds") { (view: View) in
        (model(view).marks.first, model(view).marks.last)
      }
      meter.method("summary") { (view: View, lua: LuaState, prefix: String) in
        let table = try lua.makeTable()
        try table.set("text", .string(LuaString("\(prefix) \(model(view).marks.count)")))
        return table
      }
      meter.event("on_change")
      return meter
    }
  }
}

@Suite(.timeLimit(.minutes(30))) struct TypedComponentTests {
  let root = View.window(id: "root")
  let tree: ScriptedTree

  init() throws {
    tree = try ScriptedTree(
      lua: LuaState(sandbox: LuaSandbox()), root: root, components: [try .meter])
  }

  @discardableResult
  func run(_ code: String) throws -> [LuaValue] {
    try tree.withState { try $0.run(code, name: "=test") }
  }

  @Test func typedPropertiesConvertAndNameTheirErrors() throws {
    let results = try run(
      """
      local seen = {}
      local m = ui.root:add(ui.meter{ id = 'm', on_change = function(self, v) seen[#seen + 1] = v end })
      m.level = 3        -- an integer from Lua, a Double in Swift
      m.level = 0.5
      return m.level, math.type(m.level), #seen, seen[1], seen[2]
      """)
    #expect(results == [.number(0.5), "float", 2, .number(3), .number(0.5)])
    let meter = try #require(root.find("m"))
    #expect(meter.model(as: MeterModel.self)?.level == 0.5)
    let error = try #require(throws: LuaError.self) { try run("ui.find('m').level = 'high'") }
    #expect(error.kind == .runtime)
    #expect(
      error.message.contains(
        "bad value for property 'level' of meter (number expected, got string)"),
      "\(error.message)")
    #expect(meter.model(as: MeterModel.self)?.level == 0.5)
    #expect(try run("return pcall(function() ui.find('m').level = {} end)").first == false)
  }

  @Test func aPropertyValueRoundTripsThroughAComponentProperty() throws {
    try run("ui.root:add(ui.meter{ id = 'm' })")
    let view = try #require(root.find("m"))
    for (code, stored, type) in [
      ("'loud'", PropertyValue.string("loud"), "string"),
      ("7", .integer(7), "integer"),
      ("2.5", .number(2.5), "float"),
      ("true", .bool(true), "boolean"),
    ] {
      let results = try run(
        "local m = ui.find('m'); m.label = \(code); return m.label, math.type(m.label) or type(m.label)"
      )
      #expect(view.properties["label"] == stored, "\(code)")
      #expect(results.last == .string(LuaString(type)), "\(code)")
      #expect(try PropertyValue(luaValue: results[0]) == stored, "\(code)")
    }
    // Set in Swift, read in Lua as the same value.
    view.properties["label"] = .integer(12)
    #expect(try run("return ui.find('m').label") == [12])
    try run("ui.find('m').label = nil")
    #expect(view.properties["label"] == nil)
    let error = try #require(throws: LuaError.self) { try run("ui.find('m').label = {}") }
    #expect(
      error.message.contains(
        "bad value for property 'label' of meter (string, number or boolean expected, got table)"),
      "\(error.message)")
  }

  @Test func typedMethodsTakeSeveralArgumentsAndReturnNothingOrATuple() throws {
    let results = try run(
      """
      local m = ui.root:add(ui.meter{})
      local count = m:mark('a', 2)
      count = m:mark('b', 1)
      local first, last = m:bounds()
      local cleared = select('#', m:clear())
      return count, first, last, cleared, select('#', m:bounds()), m:bounds()
      """)
    #expect(results == [3, "a", "b", 0, 2, .nil, .nil])
  }

  @Test func aBadArgumentOrSelfNamesIt() throws {
    try run("m = ui.root:add(ui.meter{})")
    for (code, expected) in [
      ("m:mark({}, 1)", "bad argument #1 to 'mark' (string expected, got table)"),
      ("m:mark('a', 'b')", "bad argument #2 to 'mark' (integer expected, got string)"),
      ("m:mark('a')", "bad argument #2 to 'mark' (integer expected, got nil)"),
      ("m.mark(5, 'a', 1)", "bad self: view expected, got number"),
      ("m.clear()", "bad self: view expected, got no value"),
      ("m.mark(ui.button{}, 'a', 1)", "bad self: meter expected, got button"),
    ] {
      let error = try #require(throws: LuaError.self, "\(code)") { try run(code) }
      #expect(error.kind == .runtime, "\(code)")
      #expect(error.message.contains(expected), "\(code): \(error.message)")
    }
    #expect(try run("return #m.marks") == [0])
  }

  @Test func gettersAndMethodsReturnTables() throws {
    let results = try run(
      """
      local m = ui.root:add(ui.meter{})
      m:mark('a', 2); m:mark('b', 1)
      local marks, counts = m.marks, m.counts
      return type(marks), #marks, marks[1], marks[3], counts.a, counts.b, m:summary('marks:').text
      """)
    #expect(results == ["table", 3, "a", "b", 2, 1, "marks: 3"])
  }
}

@Suite(.timeLimit(.minutes(30))) struct TypedComponentPluginTests {
  let root = View.window(id: "root")
  let container = View.stack(id: "plugins")
  let host: PluginHost

  init() throws {
    try root.add(container)
    root.environment.alertPresenter = Recorder()
    var limits = LuaSandbox()
    limits.timeout = .seconds(60)
    host = PluginHost(container: container, limits: limits, components: [try .meter]) { _ in }
  }

  /// A typed method checks its view's reach as an untyped one does.
  @Test func aTypedMethodDoesNotReachOutOfThePluginsPanel() throws {
    let folder = try Luahost.temporaryFolder(
      ["gauge.lua": "meter = ui.root:add(ui.meter{ id = 'level' })"])
    let gauge = try host.load(path: folder + "/gauge.lua")
    #expect(gauge.run { try $0.run("return meter:mark('a', 1)") } == [1])
    let meter = try #require(host.withTree { $0.find("level") })
    try host.withTree { _ in try meter.move(to: root) }
    #expect(gauge.run { try $0.run("return meter:mark('a', 1)") } == nil)
    let alert = try #require(host.withTree { _ in gauge.panel.alert })
    #expect(alert.message.contains("outside this script's reach"), "\(alert.message)")
    #expect(meter.model(as: MeterModel.self)?.marks == ["a"])
  }
}

/// What a component's setter stores in `view.properties` is charged to the script, as the
/// built-in `text` is: a plugin cannot park its strings on the Swift side for free.
@Suite(.timeLimit(.minutes(30))) struct ComponentPropertyChargeTests {
  @Test func storedPropertiesCountAgainstTheMemoryLimit() throws {
    var label = try ScriptedComponent("label")
    label.property(
      "caption", get: { $0.properties["caption"] }, set: { $0.properties["caption"] = $1 })
    var sandbox = LuaSandbox()
    sandbox.memoryLimit = 8 << 20
    sandbox.timeout = .seconds(60)  // a bound, not a stop: the memory limit ends it
    let root = View.window(id: "root")
    let tree = try ScriptedTree(lua: LuaState(sandbox: sandbox), root: root, components: [label])
    let error = try #require(throws: LuaError.self) {
      try tree.run(
        """
        local s = ('x'):rep(1 << 20)
        for i = 1, 1000 do ui.root:add(ui.label{id = 'l' .. i}).caption = s .. i end
        """)
    }
    #expect(error.kind == .memory, "\(error.message)")
    // The last caption that did not fit was put back: no view holds more than was paid for.
    let captions = View.treeLock.withLock {
      root.children.compactMap { $0.properties["caption"]?.stringValue }.count
    }
    #expect(captions < 8, "\(captions) captions of 1 MiB kept under an 8 MiB limit")
  }
}
