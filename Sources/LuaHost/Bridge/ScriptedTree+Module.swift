import Lua
import ViewTree

extension ScriptedTree {
  /// The `ui` table: the root, `find`, and a constructor per kind of view.
  func makeModule() throws -> LuaTable {
    let module = try lua.makeTable()
    try module.set("root", value(root))
    try module.set(
      "find",
      function { tree, arguments in
        let id = try String(luaValue: arguments.first ?? .nil)
        return [
          try View.treeLock.withLock {
            try tree.value(tree.root.findForScript(id, checkingForStop: tree.checkForStop))
          }
        ]
      })
    try module.set(
      "error", function { tree, arguments in [try tree.makeErrorValue(arguments.first ?? .nil)] })
    for (name, kind) in Self.builtInConstructors {
      try module.set(
        name,
        function { tree, arguments in
          [try tree.value(tree.makeView(kind, spec: arguments.first ?? .nil))]
        })
    }
    for component in components.values {
      try module.set(
        component.name,
        function { tree, arguments in
          let view = try View.treeLock.withLock {
            try tree.makeView(component, spec: arguments.first ?? .nil)
          }
          return [try tree.value(view)]
        })
    }
    return module
  }

  /// `ui` as a userdata over the module table: scripts can read it but not change it, not
  /// even with `rawset`, so one script cannot swap `ui.find` under another part of the host.
  func makeReadOnlyModule() throws -> LuaValue {
    let module = try makeModule()
    let entries = try module.pairs()
    try lua.register(ScriptedModule.self, name: "ui") { type in
      for case (.string(let key), let value) in entries {
        type.property(key.description, get: { _ in value })
      }
      type.newIndex { _, key, _ in
        throw LuaError(kind: .runtime, message: "ui is read-only (cannot set '\(key)')")
      }
    }
    return try lua.userdata(ScriptedModule())
  }

  /// Builds a view of a built-in kind from a spec table such as
  /// `{id = "crash", title = "Crash", on_tap = f}`.
  func makeView(_ kind: ViewKind, spec value: LuaValue) throws -> View {
    let spec = try ComponentSpec(value, constructor: kind.luaName)
    let view = View(id: try spec.id ?? kind.luaName, kind: kind)
    for name in ["title", "text", "value"] {
      if let text = try spec.get(name, as: String.self) { view.properties[name] = .string(text) }
    }
    if try kind == .boundary || !spec["on_error"].isNil || !spec["on_reset"].isNil {
      view.boundary = try boundaryConfiguration(from: spec)
    }
    try configure(view, from: spec, events: ["on_change"])
    return view
  }

  /// Builds a view of an app-defined kind: the component makes it, then the fields every
  /// kind shares (`on_tap`, `on_error`, the declared events, `children`) are applied.
  func makeView(_ component: ScriptedComponent, spec value: LuaValue) throws -> View {
    let spec = try ComponentSpec(value, constructor: component.name)
    let view = try component.make(spec)
    guard view.kind == component.kind, view.parent == nil, view.memoryAccount == nil else {
      throw LuaError(
        kind: .usage,
        message: "ui.\(component.name): the component must make a fresh, detached view of its kind")
    }
    if try !spec["on_error"].isNil || !spec["on_reset"].isNil, view.boundary == nil {
      view.boundary = BoundaryConfiguration()
    }
    try configure(view, from: spec, events: component.events)
    return view
  }

  /// Charges a new view to this script, sets its handlers from `spec`, and adds the spec's
  /// `children`. Its errors while it is in no tree go to `ui.root`'s boundary.
  private func configure(_ view: View, from spec: ComponentSpec, events: Set<String>) throws {
    try charge(view)
    view.detachedErrorRoute = root
    for name in ["on_tap", "on_error", "on_reset"] + events.sorted() {
      try setHandler(name, of: view, to: spec[name])
    }
    if case .table(let children) = try spec["children"] {
      // One entry at a time, raw: a list of strings fails at its first entry, before it is
      // copied into Swift.
      let children = try (0..<children.rawLength()).map { index in
        try Self.view(children.rawGet(.integer(Int64(index + 1))), argument: "child")
      }
      try View.treeLock.withLock {
        try placeAll(children, in: view)
      }
    }
  }

  /// Sets `on_tap`, `on_change`, `on_error` or an app-defined event of `view` to a Lua
  /// function (or clears it).
  func setHandler(_ name: String, of view: View, to handler: LuaValue) throws {
    try checkOwned(view, "set \(name) of")
    let function: LuaFunction?
    switch handler {
    case .nil: function = nil
    case .function(let f): function = f
    default:
      throw LuaError(kind: .runtime, message: "\(name) must be a function, got \(handler.typeName)")
    }
    let owner = WeakTree(tree: self)
    if let component = components[view.kind], component.events.contains(name) {
      view.eventHandlers[name] = function.map { function in
        { view, values in
          guard let tree = owner.tree else { throw Self.goneError }
          try tree.runAction(function, origin: view, passingOrigin: true) { _, _ in
            values.map(\.luaValue)
          }
        }
      }
      return
    }
    // A plugin's `ui.root` is its panel (a boundary a host owns: `owner` is set by host
    // code only), configured by the host's policy (its filter and Reset): the plugin may
    // not replace or remove them.
    if name == "on_error" || name == "on_reset", view === root, root.boundary?.owner != nil {
      throw LuaError(
        kind: .runtime,
        message:
          "ui.root.\(name): the panel's boundary is the host's; add a ui.boundary of your own")
    }
    switch name {
    case "on_tap":
      view.onTap = function.map { function in
        { view in
          guard let tree = owner.tree else { throw Self.goneError }
          try tree.runAction(function, origin: view, passingOrigin: true)
        }
      }
    case "on_change":
      view.onChange = function.map { function in
        { view in
          guard let tree = owner.tree else { throw Self.goneError }
          let text = view.value
          try tree.runAction(function, origin: view, passingOrigin: true) { _, _ in
            [.string(LuaString(text))]
          }
        }
      }
    case "on_reset":
      guard let function else {
        view.boundary?.onReset = nil
        return
      }
      if view.boundary == nil { view.boundary = BoundaryConfiguration() }
      view.boundary?.onReset = { [weak self] boundary in
        guard let self else { return }
        try rebuild(boundary, with: function)
      }
    default:
      guard let function else {
        view.boundary?.onError = nil
        return
      }
      if view.boundary == nil { view.boundary = BoundaryConfiguration() }
      view.boundary?.onError = { [weak self] error, origin in
        guard let self else { return .handle }
        return try callingLua {
          try decide(function.call(errorValue(error), value(origin)), origin: origin)
        }
      }
    }
  }

  /// What an `on_error` function's results mean: nothing or `true` handles the error here;
  /// `true, { { label, f }, … }` handles it and adds those buttons; `false` declines it;
  /// `false, e` passes `e` up instead; any other value (a `ui.error`, say) is presented here
  /// in place of the error. Raising an error inside `on_error` sends both up.
  func decide(_ results: [LuaValue], origin: View) throws -> BoundaryDecision {
    let first = results.first ?? .nil
    switch first {
    case .nil: return .handle
    case .boolean(true):
      guard results.count > 1, case .table(let list) = results[1] else { return .handle }
      return .offer(try offeredActions(list, origin: origin))
    case .boolean(false):
      guard results.count > 1, !results[1].isNil else { return .decline }
      return .escalate(replacementError(results[1], origin: origin))
    default: return .transform(into: replacementError(first, origin: origin))
    }
  }

  /// The buttons `on_error` offers: a list of `{ label, function }`.
  private func offeredActions(_ list: LuaTable, origin: View) throws -> [AlertAction] {
    try Self.actionPairs(list, "on_error").map {
      action(label: $0.label, function: $0.function, origin: origin)
    }
  }

  private func replacementError(_ value: LuaValue, origin: View) -> any Error {
    let message = (try? lua.string(describing: value)) ?? value.description
    return presentable(LuaError(kind: .runtime, message: message, value: value), origin: origin)
  }

  /// The value `on_error` receives: the original Lua error value (a `ui.error`'s value,
  /// too; `nil` for `error(nil)`, as `pcall` gives it), or the message of an error that
  /// Lua did not raise.
  func errorValue(_ error: any Error) -> LuaValue {
    let error = (error as? ScriptedAlertError)?.luaError ?? error
    // Raised in Lua: it has frames. A runtime `LuaError` made in Swift has none, and no
    // value but its message.
    if let luaError = error as? LuaError, luaError.kind == .runtime,
      !luaError.value.isNil || !luaError.traceback.isEmpty
    {
      return luaError.value
    }
    return .string(LuaString(Alert.message(for: error)))
  }
}

/// The object behind the `ui` userdata.
final class ScriptedModule {}

extension ViewKind {
  /// The name Lua uses: `text_field` for ``ViewKind/textField``, else the raw value.
  var luaName: String { self == .textField ? "text_field" : rawValue }
}
