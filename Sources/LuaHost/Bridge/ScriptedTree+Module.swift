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
        return [try View.treeLock.withLock { try tree.value(tree.root.find(id)) }]
      })
    let kinds: [(String, ViewKind)] = [
      ("stack", .stack), ("group", .group), ("text", .text), ("button", .button),
      ("text_field", .textField), ("boundary", .boundary), ("window", .window),
    ]
    for (name, kind) in kinds {
      try module.set(
        name,
        function { tree, arguments in
          [try tree.value(tree.makeView(kind, spec: arguments.first ?? .nil))]
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

  /// Builds a view from a spec table such as `{id = "crash", title = "Crash", on_tap = f}`.
  func makeView(_ kind: ViewKind, spec: LuaValue) throws -> View {
    let table: LuaTable?
    switch spec {
    case .nil: table = nil
    case .table(let t): table = t
    case .string(let s):
      table = try lua.makeTable()
      try table?.set("id", .string(s))
    default:
      throw LuaError(
        kind: .runtime,
        message: "bad argument #1 to 'ui.\(kind.luaName)' (table expected, got \(spec.typeName))")
    }
    func field(_ name: String) throws -> LuaValue { try table?.get(name) ?? .nil }
    func string(_ name: String) throws -> String? {
      let value = try field(name)
      return value.isNil ? nil : try String(luaValue: value)
    }
    let view = View(id: try string("id") ?? kind.luaName, kind: kind)
    for name in ["title", "text", "value"] {
      if let text = try string(name) { view.properties[name] = .string(text) }
    }
    if try kind == .boundary || !field("on_error").isNil {
      var configuration = BoundaryConfiguration()
      if let title = try string("title") { configuration.title = title }
      if let dismiss = try string("dismiss") { configuration.dismissLabel = dismiss }
      view.boundary = configuration
    }
    try charge(view)
    try setHandler("on_tap", of: view, to: field("on_tap"))
    try setHandler("on_change", of: view, to: field("on_change"))
    try setHandler("on_error", of: view, to: field("on_error"))
    if case .table(let children) = try field("children") {
      let children = try children.array().map { try Self.view($0, argument: "child") }
      try View.treeLock.withLock {
        for child in children { try place(child, in: view, at: nil) }
      }
    }
    return view
  }

  /// Sets `on_tap`, `on_change` or `on_error` of `view` to a Lua function (or clears it).
  func setHandler(_ name: String, of view: View, to handler: LuaValue) throws {
    try checkOwned(view, "set \(name) of")
    let function: LuaFunction?
    switch handler {
    case .nil: function = nil
    case .function(let f): function = f
    default:
      throw LuaError(kind: .runtime, message: "\(name) must be a function, got \(handler.typeName)")
    }
    switch name {
    case "on_tap":
      view.onTap = function.map { function in
        { [weak self] view in
          guard let self else { throw Self.goneError }
          try callingLua { _ = try function.call(value(view)) }
        }
      }
    case "on_change":
      view.onChange = function.map { function in
        { [weak self] view in
          guard let self else { throw Self.goneError }
          let text = view.value
          try callingLua { _ = try function.call(value(view), .string(LuaString(text))) }
        }
      }
    default:
      guard let function else {
        view.boundary?.onError = nil
        return
      }
      if view.boundary == nil { view.boundary = BoundaryConfiguration() }
      view.boundary?.onError = { [weak self] error, origin in
        guard let self else { return .handle }
        return try callingLua { try decide(function.call(errorValue(error), value(origin))) }
      }
    }
  }

  /// What an `on_error` function's results mean: nothing or `true` handles the error here;
  /// `false` declines it; `false, e` passes `e` up instead; any other value is presented here
  /// in place of the error. Raising an error inside `on_error` sends both up.
  func decide(_ results: [LuaValue]) -> BoundaryDecision {
    let first = results.first ?? .nil
    switch first {
    case .nil, .boolean(true): return .handle
    case .boolean(false):
      guard results.count > 1, !results[1].isNil else { return .decline }
      return .escalate(replacementError(results[1]))
    default: return .transform(into: replacementError(first))
    }
  }

  private func replacementError(_ value: LuaValue) -> LuaError {
    let message = (try? lua.string(describing: value)) ?? value.description
    return LuaError(kind: .runtime, message: message, value: value)
  }

  /// The value `on_error` receives: the original Lua error value, or the message.
  func errorValue(_ error: any Error) -> LuaValue {
    if let luaError = error as? LuaError, luaError.kind == .runtime, !luaError.value.isNil {
      return luaError.value
    }
    return .string(LuaString(Alert.message(for: error)))
  }

  /// An alert as a Lua table.
  func table(_ alert: Alert) throws -> LuaValue {
    let table = try lua.makeTable()
    try table.set("title", .string(LuaString(alert.title)))
    try table.set("message", .string(LuaString(alert.message)))
    try table.set("dismiss", .string(LuaString(alert.dismissLabel)))
    try table.set("path", .string(LuaString(alert.path)))
    try table.set("count", .integer(Int64(alert.count)))
    try table.set("unhandled", .boolean(alert.isUnhandled))
    if let location = alert.sourceLocation {
      try table.set("location", .string(LuaString(location)))
    }
    if let traceback = alert.traceback { try table.set("traceback", .string(LuaString(traceback))) }
    return .table(table)
  }
}

/// The object behind the `ui` userdata.
final class ScriptedModule {}

extension ViewKind {
  /// The name Lua uses: `text_field` for ``ViewKind/textField``, else the case name.
  var luaName: String { self == .textField ? "text_field" : rawValue }
}
