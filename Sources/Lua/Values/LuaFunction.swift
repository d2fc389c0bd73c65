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
    let (stack, base) = try pushed(arguments)
    defer { lua_settop(stack.L, base) }
    try stack.callAboveHandler(arguments: Int32(arguments.count), results: LUA_MULTRET)
    return (base + 2..<stack.top + 1).map { stack.value(at: $0) }
  }

  /// Calls the function as the `lua` interpreter runs a script's main chunk: from below a
  /// C function, so a traceback ends with `[C]: in ?` as it does there.
  /// - Throws: ``LuaError`` with the original error value and a traceback.
  @discardableResult
  public func callAsMainChunk(arguments: [LuaValue]) throws -> [LuaValue] {
    let stack = try LuaStack(reference.core)
    let base = stack.top
    defer { lua_settop(stack.L, base) }
    try stack.reserve(arguments.count + 5)
    lh_pushmsgh(stack.L)
    lh_pushcallmain(stack.L)
    try stack.push(reference)
    for argument in arguments { try stack.push(argument) }
    try stack.callAboveHandler(arguments: Int32(arguments.count + 1), results: LUA_MULTRET)
    return (base + 2..<stack.top + 1).map { stack.value(at: $0) }
  }

  /// Calls the function and converts its first result to `R`.
  /// - Throws: ``LuaError``, or a `conversion` error when the result does not fit `R`.
  public func call<R: LuaConvertible>(
    _ arguments: LuaValue..., returning type: R.Type
  ) throws -> R {
    let (stack, base) = try pushed(arguments)
    defer { lua_settop(stack.L, base) }
    try stack.callAboveHandler(arguments: Int32(arguments.count), results: 1)
    return try R(luaValue: stack.value(at: base + 2))
  }

  /// Pushes the message handler, the function and `arguments`, as a typed call begins
  /// (`_beginCall`), and returns the stack and the top below them. [-0, +(2+arguments)]
  private func pushed(_ arguments: [LuaValue]) throws -> (LuaStack, Int32) {
    let (stack, base) = try _beginCall(arguments: Int32(clamping: arguments.count), results: 1)
    do {
      for argument in arguments { try stack.push(argument) }
    } catch {
      lua_settop(stack.L, base)
      throw error
    }
    return (stack, base)
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

extension LuaFunction {
  /// Where a Lua function was defined (its chunk's short name and first line); nil for C
  /// and Swift functions.
  public var definition: LuaSourceLocation? {
    guard let stack = try? reference.pushed() else { return nil }
    var info = lua_Debug()
    guard lua_getinfo(stack.L, ">S", &info) != 0, info.linedefined > 0 else { return nil }
    let source = withUnsafeBytes(of: &info.short_src) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
    return LuaSourceLocation(source: source, line: Int(info.linedefined))
  }
}
