import Lua
import ViewTree

extension ScriptedTree {
  /// Registers how views look from Lua: fields `id`, `kind`, `parent`, `children`, `path`,
  /// `title`, `text`, `value`, `env`, `alert`, `alerts`; methods `find`, `add`, `remove`,
  /// `move`, `tap`, `set_value`, `dismiss`; and the settable handlers `on_tap`,
  /// `on_change`, `on_error`. Each one that touches the tree holds the tree lock.
  func registerViewType() throws {
    let owner = WeakTree(tree: self)
    // Captured: a read of the static costs its once-check, and a retain and a release.
    let treeLock = View.treeLock
    try lua.register(View.self, name: "View") { type in
      func string(_ value: LuaValue) throws -> String { try String(luaValue: value) }
      func tree() throws -> ScriptedTree {
        guard let tree = owner.tree else { throw ScriptedTree.goneError }
        return tree
      }
      // Every entry point holds the tree lock and first checks that the view is within
      // this script's reach (see `checkReach`). One closure each, taking the lock itself:
      // wrapping `ScriptedTree.locked` around them cost a closure call and its thunk on
      // every property read and method call.
      func locked(_ get: @escaping (View) throws -> LuaValue) -> (View) throws -> LuaValue {
        { view in
          try treeLock.withLock {
            try tree().checkReach(view)
            return try get(view)
          }
        }
      }
      func lockedSet(_ set: @escaping (View, LuaValue) throws -> Void) -> (View, LuaValue) throws
        -> Void
      {
        { view, value in
          try treeLock.withLock {
            try tree().checkReach(view)
            try set(view, value)
          }
        }
      }
      func lockedMethod(_ body: @escaping LuaObjectType<View>.Method) -> LuaObjectType<View>.Method
      {
        { view, arguments in
          try treeLock.withLock {
            try tree().checkReach(view)
            return try body(view, arguments)
          }
        }
      }
      type.property(
        "id", get: locked { .string(LuaString($0.id)) },
        set: lockedSet { view, value in
          try tree().checkMovable(view, "rename")
          if case .string(let text) = value { try ScriptedTree.checkIDLength(text.bytes.count) }
          let id = try string(value)
          try ScriptedTree.checkID(id)
          try tree().recharge(view, from: view.id.utf8.count, to: id.utf8.count)
          view.id = id
        })
      type.property("kind", get: { .string(LuaString($0.kind.luaName)) })
      type.property("path", get: locked { .string(LuaString($0.path)) })
      type.property("depth", get: locked { .integer(Int64($0.depth)) })
      type.property(
        "parent",
        get: locked { view in
          let tree = try tree()
          return view === tree.root ? .nil : try tree.value(view.parent)
        })
      type.property(
        "children",
        get: locked { view in
          let tree = try tree()
          var listed = 0
          return try tree.lua.value(
            view.children.map { child in
              listed += 1
              if listed % View.scriptWalkBatch == 0 { try tree.checkForStop() }
              return try tree.value(child)
            })
        })
      for name in ["title", "text"] {
        type.property(
          name,
          get: locked { view in
            let tree = try tree()
            if let getter = tree.override(name, of: view)?.getters[name] {
              return try getter(view, tree.lua)
            }
            return view.properties[name]?.stringValue.map { .string(LuaString($0)) } ?? .nil
          },
          set: lockedSet { view, value in
            if let component = try tree().override(name, of: view) {
              return try tree().set(name, of: view, by: component, to: value)
            }
            let text = value.isNil ? nil : try string(value)
            try tree().recharge(
              view, from: view.properties[name]?.stringValue?.utf8.count ?? 0,
              to: text?.utf8.count ?? 0)
            view.properties[name] = text.map { .string($0) }
          })
      }
      type.property(
        "value",
        get: locked { view in
          let tree = try tree()
          if let getter = tree.override("value", of: view)?.getters["value"] {
            return try getter(view, tree.lua)
          }
          return .string(LuaString(view.value))
        },
        set: lockedSet { view, value in
          if let component = try tree().override("value", of: view) {
            return try tree().set("value", of: view, by: component, to: value)
          }
          _ = try tree().setValue(of: view, to: string(value))
        })
      // What an app-defined kind adds: its own properties, methods and events.
      type.index(
        ScriptedTree.locked { view, key in
          let tree = try tree()
          guard let component = tree.components[view.kind], case .string(let text) = key,
            let name = text.string
          else { return .nil }
          try tree.checkReach(view)
          if let getter = component.getters[name] { return try getter(view, tree.lua) }
          return try tree.method(name, of: component)
        })
      type.newIndex(
        ScriptedTree.locked { view, key, value in
          let tree = try tree()
          try tree.checkReach(view)
          guard let component = tree.components[view.kind], case .string(let text) = key,
            let name = text.string,
            component.setters[name] != nil || component.events.contains(name)
          else {
            throw LuaError(
              kind: .runtime, message: "cannot set field '\(key)' of \(view.kind.luaName)")
          }
          if component.events.contains(name) {
            return try tree.setHandler(name, of: view, to: value)
          }
          try tree.set(name, of: view, by: component, to: value)
        })
      type.property("env", get: locked { try tree().lua.userdata(ScriptedEnvironment(view: $0)) })
      type.property(
        "alert",
        get: locked { view in try view.alert.map { try tree().table($0, boundary: view) } ?? .nil })
      type.property(
        "alerts",
        get: locked { view in
          let tree = try tree()
          return try tree.lua.value(
            view.alerts.map { try tree.table($0, boundary: view) })
        })
      type.property("is_boundary", get: locked { .boolean($0.boundary != nil) })
      for handler in ["on_tap", "on_change", "on_error", "on_reset"] {
        type.property(
          handler, get: { _ in .nil },
          set: lockedSet { view, value in try tree().setHandler(handler, of: view, to: value) })
      }
      // The id is converted before the tree lock is taken: its length is the script's.
      type.method("find") { view, arguments in
        let id = try string(arguments.first ?? .nil)
        return try treeLock.withLock {
          let tree = try tree()
          try tree.checkReach(view)
          return [try tree.value(view.findForScript(id, checkingForStop: tree.checkForStop))]
        }
      }
      /// The optional 1-based position argument at `index`. Any integer is accepted here:
      /// `place` checks the range, and names the position as the script gave it.
      func position(_ arguments: [LuaValue], _ index: Int) throws -> Int? {
        guard arguments.count > index, !arguments[index].isNil else { return nil }
        return try Int(luaValue: arguments[index])
      }
      type.method(
        "add",
        lockedMethod { view, arguments in
          let child = try ScriptedTree.view(arguments.first, argument: "child")
          try tree().place(child, in: view, atPosition: position(arguments, 1))
          return [arguments[0]]
        })
      type.method(
        "move",
        lockedMethod { view, arguments in
          let parent = try ScriptedTree.view(arguments.first, argument: "parent")
          try tree().place(view, in: parent, atPosition: position(arguments, 1))
          return []
        })
      type.method(
        "remove",
        lockedMethod { view, _ in
          try tree().checkMovable(view, "remove")
          try tree().checkOwned(view, "remove")
          return [.boolean(view.removeFromParent())]
        })
      // Typed, so `self` is read in place: the untyped form built an argument array and a
      // registry reference to the view's userdata on every tap.
      type.method("tap") { (view: View) throws -> Bool in
        try treeLock.withLock {
          try tree().checkReach(view)
          return view.tap()
        }
      }
      type.method(
        "set_value",
        lockedMethod { view, arguments in
          [.boolean(try tree().setValue(of: view, to: string(arguments.first ?? .nil)))]
        })
      type.method("dismiss") { (view: View) throws -> Bool in
        try treeLock.withLock {
          try tree().checkReach(view)
          return view.dismiss() != nil
        }
      }
      type.metamethod(.tostring) { arguments in
        let view = try ScriptedTree.view(arguments.first)
        return [.string(LuaString(treeLock.withLock { view.description }))]
      }
    }
  }
}
