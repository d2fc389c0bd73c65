import Lua
import LuaHost
import ViewTree

/// `ui.task_list{ id = "…", on_complete = function(self, title) … end }`: a list backed by
/// the app's `TaskStore`. Lua reads `count` and `items`, calls `add_task(title)` and
/// `complete(n)`; the list sends `on_complete` with the task's title.
enum TaskList {
  static let kind = ViewKind("task_list")

  /// A list view over `store`, for Swift (the app's own window) and Lua alike.
  static func makeView(id: String, store: TaskStore) -> View {
    let view = View(id: id, kind: kind)
    view.model = store
    return view
  }

  static func component(store shared: TaskStore) throws -> ScriptedComponent {
    var list = try ScriptedComponent("task_list") { spec in
      makeView(id: try spec.id ?? "tasks", store: shared)
    }
    func store(of view: View) -> TaskStore { view.model(as: TaskStore.self) ?? shared }
    // Typed: Swift values in and out; a bad argument raises a Lua error that names it.
    list.property("count", get: { store(of: $0).openCount })
    list.property(
      "items",
      get: { view in
        // One line per task, numbered as `complete` counts.
        store(of: view).tasks.enumerated().map { index, task in
          "\(index + 1). [\(task.isDone ? "x" : " ")] \(task.title)"
        }.joined(separator: "\n")
      })
    list.method("add_task") { (view: View, title: String) in
      try store(of: view).add(title)
      return store(of: view).tasks.count
    }
    list.method("complete") { (view: View, number: Int) in
      try store(of: view).complete(number - 1)
      view.send("on_complete", [.string(store(of: view).tasks[number - 1].title)])
    }
    list.event("on_complete")
    return list
  }
}

/// `ui.slider{ id =, min =, max =, value =, on_change = }`: a number in a range. Setting
/// `value` clamps it and sends `on_change` with the new value.
enum Slider {
  static let kind = ViewKind("slider")

  final class Model {
    var range: ClosedRange<Double>
    var value: Double
    init(range: ClosedRange<Double>, value: Double) {
      self.range = range
      self.value = min(max(value, range.lowerBound), range.upperBound)
    }
  }

  static func makeView(id: String, range: ClosedRange<Double>, value: Double) -> View {
    let view = View(id: id, kind: kind)
    view.model = Model(range: range, value: value)
    return view
  }

  static func component() throws -> ScriptedComponent {
    var slider = try ScriptedComponent("slider") { spec in
      let low = try spec.get("min", as: Double.self) ?? 0
      let high = try spec.get("max", as: Double.self) ?? 1
      guard low <= high else {
        throw LuaError(kind: .runtime, message: "slider: min (\(low)) is above max (\(high))")
      }
      return makeView(
        id: try spec.id ?? "slider", range: low...high,
        value: try spec.get("value", as: Double.self) ?? low)
    }
    func model(_ view: View) -> Model {
      view.model(as: Model.self) ?? Model(range: 0...0, value: 0)
    }
    slider.property(
      "value", get: { model($0).value },
      set: { (view, value: Double) in
        let model = model(view)
        let new = min(max(value, model.range.lowerBound), model.range.upperBound)
        guard new != model.value else { return }
        model.value = new
        view.send("on_change", [.number(new)])
      })
    slider.property("min", get: { model($0).range.lowerBound })
    slider.property("max", get: { model($0).range.upperBound })
    slider.event("on_change")
    return slider
  }
}
