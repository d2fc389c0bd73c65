import Lua
import LuaHost
import TestSupport
import Testing
import ViewTree

/// A slider backed by Swift state: what an app declares for its own components.
final class SliderModel {
  var bounds: ClosedRange<Double>
  var value: Double
  init(bounds: ClosedRange<Double>, value: Double) {
    self.bounds = bounds
    self.value = value
  }
}

struct SliderOutOfRange: Error, Equatable { var value: Double }

extension ScriptedComponent {
  /// `ui.slider{ min =, max =, value =, on_change = }`; `value` clamps and sends
  /// `on_change`; `nudge(by)` moves it, and throws for a step of 0.
  static var slider: ScriptedComponent {
    get throws {
      var slider = try ScriptedComponent("slider") { spec in
        let low = try spec.get("min", as: Double.self) ?? 0
        let high = try spec.get("max", as: Double.self) ?? 1
        guard low <= high else { throw LuaError(kind: .runtime, message: "slider: min > max") }
        let view = View(id: try spec.id ?? "slider", kind: ViewKind("slider"))
        view.model = SliderModel(
          bounds: low...high, value: try spec.get("value", as: Double.self) ?? low)
        return view
      }
      func model(_ view: View) -> SliderModel { view.model(as: SliderModel.self)! }
      func move(_ view: View, to value: Double) {
        let model = model(view)
        let clamped = min(max(value, model.bounds.lowerBound), model.bounds.upperBound)
        guard clamped != model.value else { return }
        model.value = clamped
        view.send("on_change", [.number(clamped)])
      }
      slider.property(
        "value", get: { .number(model($0).value) },
        set: { view, value in move(view, to: try Double(luaValue: value)) })
      slider.property("min", get: { .number(model($0).bounds.lowerBound) })
      slider.method("nudge") { view, arguments in
        let step = try Double(luaValue: arguments.first ?? .nil)
        guard step != 0 else { throw SliderOutOfRange(value: model(view).value) }
        move(view, to: model(view).value + step)
        return [.number(model(view).value)]
      }
      slider.event("on_change")
      return slider
    }
  }
}

@Suite(.timeLimit(.minutes(30))) struct ScriptedComponentTests {
  let root = View.window(id: "root")
  let recorder = Recorder()
  let tree: ScriptedTree

  init() throws {
    root.environment.alertPresenter = recorder
    tree = try ScriptedTree(
      lua: LuaState(sandbox: LuaSandbox()), root: root, components: [try .slider])
  }

  @discardableResult
  func run(_ code: String) throws -> [LuaValue] {
    try tree.withState { try $0.run(code, name: "=test") }
  }

  @Test func aComponentIsMadeFromLuaWithItsSpec() throws {
    let results = try run(
      """
      local s = ui.root:add(ui.slider{ id = 'volume', min = 0, max = 10, value = 3 })
      return s.value, s.min, s.kind, s.path, ui.find('volume') == s, tostring(s)
      """)
    #expect(results == [.number(3), .number(0), "slider", "root/volume", true, "slider#volume"])
    let view = try #require(root.find("volume"))
    #expect(view.kind == ViewKind("slider"))
    #expect(view.model(as: SliderModel.self)?.value == 3)
  }

  @Test func propertiesMethodsAndEventsReachSwiftAndBack() throws {
    let results = try run(
      """
      local seen = {}
      local s = ui.slider{ max = 10, on_change = function(self, v) seen[#seen + 1] = v end }
      s.value = 4          -- the Swift setter runs, and sends on_change
      s.value = 40         -- clamped to 10
      local after = s:nudge(-2)
      s.on_change = nil    -- handlers are settable like on_tap
      s.value = 1
      return #seen, seen[1], seen[2], seen[3], after, s.value
      """)
    #expect(results == [3, .number(4), .number(10), .number(8), .number(8), .number(1)])
  }

  @Test func anErrorInAComponentsHandlerGoesToTheNearestBoundary() throws {
    try run(
      """
      local guard = ui.root:add(ui.boundary{ id = 'guard' })
      guard:add(ui.slider{ id = 's', on_change = function() error('cannot change') end })
      """)
    let slider = try #require(root.find("s"))
    slider.model(as: SliderModel.self)?.value = 0
    #expect(slider.send("on_change", [.number(1)]) == false)
    #expect(recorder.presented.map(\.boundary) == ["guard"])
    #expect(recorder.presented.first?.alert.message == "test:2: cannot change")
  }

  @Test func aSwiftErrorFromAMethodComesBackTheSame() throws {
    #expect(
      try run("return pcall(function() ui.slider{}:nudge(0) end)").first == false)
    do {
      try run("ui.slider{ value = 0.5 }:nudge(0)")
      Issue.record("expected an error")
    } catch let error as LuaError {
      #expect(error.underlying(as: SliderOutOfRange.self) == SliderOutOfRange(value: 0.5))
    }
  }

  @Test func fieldsAreCheckedLikeTheBuiltInOnes() throws {
    for (code, expected) in [
      ("ui.slider{}.min = 3", "cannot set field 'min' of slider"),  // read-only
      ("ui.slider{}.nonsense = 3", "cannot set field 'nonsense' of slider"),
      ("ui.slider{ on_change = 3 }", "on_change must be a function, got number"),
      ("ui.slider(42)", "bad argument #1 to 'ui.slider' (table expected, got number)"),
      ("ui.slider{ min = 'x' }", "field 'min': number expected, got string"),
      ("ui.button{}:nudge(1)", "attempt to call a nil value (method 'nudge')"),
    ] {
      let error = try #require(throws: LuaError.self, "\(code)") { try run(code) }
      #expect(error.kind == .runtime, "\(code)")
      #expect(error.message.contains(expected), "\(code): \(error.message)")
    }
    // A component's method called on a view of another kind says so.
    let message = try run(
      "local s = ui.slider{}; return select(2, pcall(s.nudge, ui.button{}, 1))")
    #expect(
      message.first?.description.contains("slider expected, got button") == true, "\(message)")
    // Built-in kinds do not see the component's fields.
    #expect(try run("return ui.button{}.min") == [.nil])
  }

  /// A bad or built-in name is refused where the component is made (it used to pass, and
  /// then every plugin failed to load with a "bad manifest.lua").
  @Test func aBadOrBuiltInNameIsRefusedWhereTheComponentIsMade() throws {
    let refused = [
      ("button", "component 'button': ui.button exists already"),
      ("root", "component 'root': ui.root exists already"),
      ("find", "component 'find': ui.find exists already"),
      ("", "component '': a name is 1 to 64 letters, digits and '_', not starting with a digit"),
      (
        "2d", "component '2d': a name is 1 to 64 letters, digits and '_', not starting with a digit"
      ),
      (
        "my-list",
        "component 'my-list': a name is 1 to 64 letters, digits and '_', not starting with a digit"
      ),
      (
        "caf\u{E9}",
        "component 'caf\u{E9}': a name is 1 to 64 letters, digits and '_', not starting with a digit"
      ),
    ]
    for (name, message) in refused {
      let error = try #require(throws: LuaError.self, "\(name)") { try ScriptedComponent(name) }
      #expect(error.kind == .usage)
      #expect(error.message == message)
    }
    #expect(try ScriptedComponent("task_list2").name == "task_list2")
    for name in ["string", "package", "_G", "", ".tasks", "a..b", "tasks.", "t/x"] {
      let error = try #require(throws: LuaError.self, "\(name)") {
        try HostModule(name) { _ in .nil }
      }
      #expect(error.kind == .usage)
      #expect(error.message.hasPrefix("module '\(name)': "), "\(error.message)")
    }
    #expect(try HostModule("app.tasks") { _ in .nil }.name == "app.tasks")
  }

  @Test func aComponentCannotTakeABuiltInNameOrField() throws {
    var clash = try ScriptedComponent("knob")
    clash.property("parent", get: { _ in .nil })
    let refused: [([ScriptedComponent], String)] = [
      ([clash], "component 'knob': 'parent' is a field of every view"),
      ([try .slider, try .slider], "component 'slider': ui.slider exists already"),
    ]
    for (components, message) in refused {
      let error = try #require(throws: LuaError.self, "\(message)") {
        try ScriptedTree(
          lua: LuaState(sandbox: LuaSandbox()), root: View.window(id: "w"),
          components: components)
      }
      #expect(error.kind == .usage)
      #expect(error.message == message)
    }
    let liar = try ScriptedComponent("liar") { _ in View.button("b", id: "b") }
    let tree = try ScriptedTree(
      lua: LuaState(sandbox: LuaSandbox()), root: View.window(id: "w"), components: [liar])
    let lie = try #require(throws: LuaError.self) {
      try tree.withState { try $0.run("ui.liar{}") }
    }
    #expect(lie.kind == .usage)
    #expect(
      lie.message.contains("ui.liar: the component must make a fresh, detached view of its kind"),
      "\(lie.message)")
  }
}

@Suite(.timeLimit(.minutes(30))) struct PluginComponentTests {
  let root = View.window(id: "root")
  let container = View.stack(id: "plugins")
  let recorder = Recorder()
  let host: PluginHost

  init() throws {
    try root.add(container)
    root.environment.alertPresenter = recorder
    var limits = LuaSandbox()
    limits.timeout = .seconds(60)  // generous: ThreadSanitizer makes the memory test slow
    limits.memoryLimit = 4 << 20
    host = PluginHost(container: container, limits: limits, components: [try .slider]) { _ in }
  }

  func plugin(_ source: String) throws -> Plugin {
    let folder = try Luahost.temporaryFolder(["mixer.lua": source])
    return try host.load(path: folder + "/mixer.lua")
  }

  @Test func aPluginsComponentsStayInItsPanelAndItsBoundary() throws {
    let mixer = try plugin(
      """
      slider = ui.root:add(ui.slider{ id = 'gain', on_change = function() error('clipped') end })
      """)
    let gain = try #require(host.withTree { $0.find("gain") })
    #expect(host.withTree { _ in gain.path } == "root/plugins/mixer/gain")
    _ = gain.send("on_change", [.number(1)])
    #expect(recorder.presented.map(\.boundary) == ["mixer"])
    // The host's Swift code moves the slider out of the panel: the plugin loses it.
    try host.withTree { _ in
      try gain.move(to: root)
      mixer.panel.dismissAll()
    }
    #expect(mixer.run { try $0.run("return slider.value") } == nil)
    #expect(mixer.run { try $0.run("return slider:nudge(1)") } == nil)
    // Both are the same alert, counted twice.
    let alert = try #require(host.withTree { _ in mixer.panel.alert })
    #expect(alert.message.contains("outside this script's reach"), "\(alert.message)")
    #expect(alert.count == 2)
  }

  @Test func aPluginsComponentsAreChargedToIt() throws {
    _ = try plugin(
      "for i = 1, 1e6 do ui.root:add(ui.slider{ id = string.rep('x', 1000) .. i }) end")
    #expect(recorder.presented.first?.alert.message.contains("not enough memory") == true)
  }
}
