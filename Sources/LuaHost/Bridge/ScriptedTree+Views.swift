import Lua
import ViewTree

extension ScriptedTree {
  /// Registers how views look from Lua: fields `id`, `kind`, `parent`, `children`, `path`,
  /// `title`, `text`, `value`, `env`, `alert`, `alerts`; methods `find`, `add`, `remove`,
  /// `move`, `tap`, `set_value`, `dismiss`; and the settable handlers `on_tap`,
  /// `on_change`, `on_error`.
  func registerViewType() throws {
    try lua.register(View.self, name: "View") { [weak self] type in
      func string(_ value: LuaValue) throws -> String { try String(luaValue: value) }
      func tree() throws -> ScriptedTree {
        guard let self else { throw ScriptedTree.goneError }
        return self
      }
      type.property("id", get: { .string(LuaString($0.id)) }, set: { $0.id = try string($1) })
      type.property("kind", get: { .string(LuaString($0.kind.luaName)) })
      type.property("path", get: { .string(LuaString($0.path)) })
      type.property("depth", get: { .integer(Int64($0.depth)) })
      type.property("parent", get: { try tree().value($0.parent) })
      type.property(
        "children",
        get: { view in
          let tree = try tree()
          return try tree.lua.value(view.children.map { try tree.value($0) })
        })
      for name in ["title", "text"] {
        type.property(
          name, get: { $0.properties[name]?.stringValue.map { .string(LuaString($0)) } ?? .nil },
          set: { view, value in
            view.properties[name] = value.isNil ? nil : .string(try string(value))
          })
      }
      type.property(
        "value", get: { .string(LuaString($0.value)) },
        set: { view, value in view.setValue(try string(value)) })
      type.property("env", get: { try tree().lua.userdata(ScriptedEnvironment(view: $0)) })
      type.property("alert", get: { view in try view.alert.map { try tree().table($0) } ?? .nil })
      type.property(
        "alerts",
        get: { view in
          let tree = try tree()
          return try tree.lua.value(
            ([view.alert].compactMap { $0 } + view.queuedAlerts).map { try tree.table($0) })
        })
      type.property("is_boundary", get: { .boolean($0.boundary != nil) })
      for handler in ["on_tap", "on_change", "on_error"] {
        type.property(
          handler, get: { _ in .nil },
          set: { view, value in try tree().setHandler(handler, of: view, to: value) })
      }
      type.method("find") { view, arguments in
        [try tree().value(view.find(string(arguments.first ?? .nil)))]
      }
      type.method("add") { view, arguments in
        let child = try ScriptedTree.view(arguments.first, argument: "child")
        if arguments.count > 1, !arguments[1].isNil {
          try view.insert(child, at: Int(luaValue: arguments[1]) - 1)
        } else {
          try view.add(child)
        }
        return [arguments[0]]
      }
      type.method("move") { view, arguments in
        let parent = try ScriptedTree.view(arguments.first, argument: "parent")
        let index =
          try arguments.count > 1 && !arguments[1].isNil ? Int(luaValue: arguments[1]) - 1 : nil
        try view.move(to: parent, at: index)
        return []
      }
      type.method("remove") { view, _ in [.boolean(view.removeFromParent())] }
      type.method("tap") { view, _ in [.boolean(view.tap())] }
      type.method("set_value") { view, arguments in
        [.boolean(view.setValue(try string(arguments.first ?? .nil)))]
      }
      type.method("dismiss") { view, _ in [.boolean(view.dismiss() != nil)] }
      type.metamethod(.tostring) { arguments in
        [.string(LuaString((try ScriptedTree.view(arguments.first)).description))]
      }
    }
  }
}
