import Lua
import ViewTree

extension ScriptedTree {
  /// The component of `view`'s kind if it redefines the built-in field `name` (`title`,
  /// `text` or `value`). Free when the tree has no components.
  func override(_ name: String, of view: View) -> ScriptedComponent? {
    guard !components.isEmpty, let component = components[view.kind],
      component.getters[name] != nil
    else { return nil }
    return component
  }

  /// The Lua function of `component`'s method `name` (made on first use, then the same
  /// function every time), or `nil` when it has none.
  func method(_ name: String, of component: ScriptedComponent) throws -> LuaValue {
    if let made = componentMethods[component.kind]?[name] { return made }
    guard let body = component.methods[name] else { return .nil }
    let function: LuaValue
    switch body {
    case .values(let body):
      function = try self.function { tree, arguments in
        let view = try Self.view(arguments.first, argument: "self")
        return try View.treeLock.withLock {
          try tree.checkReceiver(view, of: component)
          return try body(view, Array(arguments.dropFirst()))
        }
      }
    case .inPlace(let make):
      // Weak: Lua keeps its functions until the state closes, and the tree owns the state.
      function = .function(
        try make(lua) { [weak self] arguments in
          guard let self else { throw Self.goneError }
          let view = try Self.receiver(arguments)
          try checkReceiver(view, of: component)
          return view
        })
    }
    componentMethods[component.kind, default: [:]][name] = function
    return function
  }

  /// Throws unless `view`, the `self` of a call to a method of `component`, is a view of
  /// its kind within this script's reach. Holding the tree lock.
  private func checkReceiver(_ view: View, of component: ScriptedComponent) throws {
    try checkReach(view)
    guard view.kind == component.kind else {
      throw LuaError(
        kind: .runtime,
        message: "bad self: \(component.name) expected, got \(view.kind.luaName)")
    }
  }
}

extension ScriptedComponent {
  /// Writes the property `name` of `view`, or raises a Lua error if it is read-only.
  func set(_ name: String, of view: View, to value: LuaValue) throws {
    guard let setter = setters[name] else {
      throw LuaError(
        kind: .runtime, message: "cannot set read-only property '\(name)' of \(self.name)")
    }
    try setter(view, value)
  }
}
