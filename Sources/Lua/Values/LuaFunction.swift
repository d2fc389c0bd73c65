import CLua
import CLuaShim

/// A reference to a Lua function (a Lua closure, a C function or a Swift closure).
public struct LuaFunction {
  let reference: LuaReference

  init(_ reference: LuaReference) { self.reference = reference }

  /// Calls the function in protected mode and returns all its results.
  /// - Throws: ``LuaError`` with the original error value and a traceback.
  @discardableResult
  public func call(_ arguments: LuaValue...) throws -> [LuaValue] {
    try call(arguments: arguments)
  }

  /// Calls the function with an array of arguments and returns all its results.
  /// - Throws: ``LuaError`` with the original error value and a traceback.
  @discardableResult
  public func call(arguments: [LuaValue]) throws -> [LuaValue] {
    let stack = try reference.pushed()
    let base = stack.top - 1
    do {
      try stack.reserve(arguments.count)
      for argument in arguments { try stack.push(argument) }
    } catch {
      lua_settop(stack.L, base)
      throw error
    }
    let count = try stack.call(arguments: Int32(arguments.count))
    defer { lua_settop(stack.L, base) }
    return (0..<count).map { stack.value(at: base + 1 + $0) }
  }

  /// Calls the function and converts its first result to `R`.
  /// - Throws: ``LuaError``, or a `conversion` error when the result does not fit `R`.
  public func call<R: LuaConvertible>(
    _ arguments: LuaValue..., returning type: R.Type
  ) throws -> R {
    try R(luaValue: call(arguments: arguments).first ?? .nil)
  }
}

/// A reference to a full userdata.
public struct LuaUserdata {
  let reference: LuaReference

  init(_ reference: LuaReference) { self.reference = reference }

  /// The Swift object this userdata holds, if it holds one of type `T`.
  public func object<T: AnyObject>(as type: T.Type = T.self) -> T? {
    guard let stack = try? reference.pushed() else { return nil }
    defer { stack.pop() }
    return stack.object(at: -1) as? T
  }
}

/// A reference to a Lua thread (coroutine).
public struct LuaThread {
  let reference: LuaReference

  init(_ reference: LuaReference) { self.reference = reference }

  /// The coroutine's status as `coroutine.status` would name it for a thread that is not
  /// the running one: `suspended`, `dead` or `normal`.
  public func status() throws -> String {
    let stack = try reference.pushed()
    defer { stack.pop() }
    guard let thread = lua_tothread(stack.L, -1) else { return "dead" }
    if thread == stack.L { return "running" }
    switch lua_status(thread) {
    case LUA_YIELD: return "suspended"
    case LUA_OK:
      var debug = lua_Debug()
      if lua_getstack(thread, 0, &debug) != 0 { return "normal" }
      return lua_gettop(thread) == 0 ? "dead" : "suspended"
    default: return "dead"
    }
  }
}
