import CLua

/// The arguments of a call from Lua, read in place on the Lua stack: no array is built.
///
/// Positions are 1-based, as in Lua; a position past ``count`` reads as `nil`. A
/// `LuaArguments` is valid only while the closure it was passed to runs: do not store it.
///
/// ```swift
/// try lua.register("add", arguments: { args in try args.integer(at: 1) + args.integer(at: 2) })
/// ```
public struct LuaArguments {
  @usableFromInline let stack: LuaStack
  /// The number of arguments Lua passed.
  public let count: Int

  /// The state the call runs in (for `luaValue(in:)`). Not API.
  @usableFromInline
  var state: LuaState { stack.core.owner! }

  init(stack: LuaStack, count: Int32) {
    self.stack = stack
    self.count = Int(count)
  }

  /// The argument at `position` (1-based), or `nil` past the end.
  public subscript(position: Int) -> LuaValue {
    guard position >= 1, position <= count else { return .nil }
    return stack.value(at: Int32(position))
  }

  /// The integer at `position`; a float with an exact integer value also converts.
  /// - Throws: a `runtime` error "bad argument #n (…)" for any other value.
  public func integer(at position: Int) throws -> Int64 {
    if position >= 1, position <= count {
      var isInteger: Int32 = 0
      let value = lua_tointegerx(stack.L, Int32(position), &isInteger)
      if isInteger != 0, lua_type(stack.L, Int32(position)) == LUA_TNUMBER { return value }
    }
    return try convert(at: position, to: Int64.self)
  }

  /// The number at `position` (an integer converts to `Double`).
  /// - Throws: a `runtime` error "bad argument #n (…)" for a non-number.
  public func number(at position: Int) throws -> Double {
    if position >= 1, position <= count, lua_type(stack.L, Int32(position)) == LUA_TNUMBER {
      return lua_tonumberx(stack.L, Int32(position), nil)
    }
    return try convert(at: position, to: Double.self)
  }

  /// The argument at `position` converted to `T` (a missing argument converts from `nil`).
  /// - Throws: a `runtime` error "bad argument #n (…)" when it does not convert.
  public func convert<T: LuaConvertible>(at position: Int, to type: T.Type = T.self) throws -> T {
    do {
      return try T(luaValue: self[position])
    } catch let error as LuaError {
      throw LuaError(kind: .runtime, message: "bad argument #\(position) (\(error.message))")
    }
  }
}

extension LuaState {
  /// A Lua function that runs `body` with its arguments read in place (see
  /// ``LuaArguments``), returning one result: the allocation-free way to expose a Swift
  /// function that takes and returns scalars.
  /// - Throws: `usage` when the state is closed.
  @inlinable
  public func function<Result: LuaConvertible>(
    arguments body: @escaping (LuaArguments) throws -> Result
  ) throws -> LuaFunction {
    try _function { arguments in try body(arguments).luaValue(in: arguments.state) }
  }

  /// A Lua function whose body reads its arguments in place and returns one value. Not
  /// API: the inlinable typed `function`s are built on it.
  @usableFromInline
  func _function(_ body: @escaping (LuaArguments) throws -> LuaValue) throws -> LuaFunction {
    let stack = try LuaStack(core)
    try stack.push(
      LuaCallback(core: core) { stack, argc in
        let result = try body(LuaArguments(stack: stack, count: argc))
        try stack.reserve(1)
        try stack.push(result)
        return 1
      })
    defer { stack.pop() }
    return LuaFunction(stack.reference(at: -1))
  }

  /// Sets the global `name` to a function that runs `body` (see ``function(arguments:)``).
  /// - Throws: `usage` when the state is closed, or an error from a `__newindex` on `_G`.
  public func register<Result: LuaConvertible>(
    _ name: String, arguments body: @escaping (LuaArguments) throws -> Result
  ) throws {
    try globals().set(name, .function(function(arguments: body)))
  }
}
