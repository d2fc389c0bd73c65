import Lua
import ViewTree

/// What `view.env` gives Lua: reads resolve through the view's ancestors (the nearest
/// value wins), writes set a value on the view itself (`nil` removes it), and
/// `env.error_handler(f, ...)` runs `f` and sends an error it raises to the nearest
/// boundary, returning `true` and `f`'s results, or `false` if it raised.
final class ScriptedEnvironment {
  weak var view: View?
  init(view: View) { self.view = view }

  func liveView() throws -> View {
    guard let view else { throw LuaError(kind: .runtime, message: "env: the view is gone") }
    return view
  }
}

extension ScriptedTree {
  func registerEnvironmentType() throws {
    try lua.register(ScriptedEnvironment.self, name: "Environment") { [weak self] type in
      type.index { environment, key in
        try View.treeLock.withLock {
          guard let self else { throw ScriptedTree.goneError }
          let view = try environment.liveView()
          try self.checkReach(view)
          let name = try String(luaValue: key)
          guard name == "error_handler" else {
            return ScriptedTree.luaValue(of: view.environment[named: name])
          }
          return try self.function { [weak view] _, arguments in
            guard let view else {
              throw LuaError(kind: .runtime, message: "error_handler: the view is gone")
            }
            let body = try LuaFunction(luaValue: arguments.first ?? .nil)
            do {
              return [true] + (try body.call(arguments: Array(arguments.dropFirst())))
            } catch {
              View.treeLock.withLock { _ = view.environment.errorHandler.handle(error) }
              return [false]
            }
          }
        }
      }
      type.newIndex(
        ScriptedTree.locked { [weak self] environment, key, value in
          guard let self else { throw ScriptedTree.goneError }
          let name = try String(luaValue: key)
          guard name != "error_handler" else {
            throw LuaError(kind: .runtime, message: "env.error_handler cannot be replaced")
          }
          // `nil` must be Optional<Any>.none: LuaValue is itself expressible by `nil`.
          let stored: Any? = value.isNil ? Optional<Any>.none : value
          let view = try environment.liveView()
          try self.checkReach(view)
          let old = (view.localEnvironmentValue(named: name) as? LuaValue).map {
            name.utf8.count + ScriptedTree.memoryCost(of: $0)
          }
          try self.recharge(
            view, from: old ?? 0,
            to: value.isNil ? 0 : name.utf8.count + ScriptedTree.memoryCost(of: value))
          view.setEnvironment(named: name, to: stored)
        })
      type.metamethod(.tostring) { arguments in
        guard case .userdata(let userdata)? = arguments.first,
          let view = userdata.object(as: ScriptedEnvironment.self)?.view
        else { return ["env (view gone)"] }
        return [.string(LuaString("env of \(View.treeLock.withLock { view.path })"))]
      }
    }
  }

  /// A named environment value as Lua sees it.
  static func luaValue(of value: Any?) -> LuaValue {
    switch value {
    case let value as LuaValue: value
    case let value as String: .string(LuaString(value))
    case let value as Bool: .boolean(value)
    case let value as Int: .integer(Int64(value))
    case let value as Double: .number(value)
    default: .nil
    }
  }
}
