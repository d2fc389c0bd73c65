import CLua

// The typed functions and calls move values between Swift and the Lua stack through
// `_read` and `_push`. These defaults go through `LuaValue`, as the rest of the API does;
// the scalars below skip it, and skip reading the `LuaState` (a weak load and a release
// on a side-tabled object: about 170 instructions per call under callgrind).

extension LuaConvertible {
  /// Converts the value at `position` with ``init(luaValue:)``.
  @inlinable
  public static func _read(_ arguments: LuaArguments, at position: Int) throws -> Self {
    try arguments.convert(at: position, to: Self.self)
  }

  /// Pushes ``luaValue(in:)``, made in the call's state.
  @inlinable
  public func _push(_ arguments: LuaArguments) throws {
    try arguments.pushValue(luaValue(in: arguments.state))
  }

  /// nil: the value is made in a state (``luaValue(in:)``).
  @inlinable
  public var _plainLuaValue: LuaValue? { nil }
}

extension LuaValue {
  /// The value itself.
  @inlinable
  public var _plainLuaValue: LuaValue? { self }

  /// Pushes the value as it is (no state needed).
  @inlinable
  public func _push(_ arguments: LuaArguments) throws { try arguments.pushValue(self) }
}

extension Int64 {
  /// The integer, made without a state.
  @inlinable
  public var _plainLuaValue: LuaValue? { .integer(self) }

  /// Reads an integer, or a float with an exact integer value, in place.
  @inlinable
  public static func _read(_ arguments: LuaArguments, at position: Int) throws -> Int64 {
    try arguments.integer(at: position)
  }

  /// Pushes an integer.
  @inlinable
  public func _push(_ arguments: LuaArguments) { arguments.pushInteger(self) }
}

extension Int {
  /// The integer, made without a state.
  @inlinable
  public var _plainLuaValue: LuaValue? { .integer(Int64(self)) }

  /// Reads an integer, or a float with an exact integer value, in place.
  @inlinable
  public static func _read(_ arguments: LuaArguments, at position: Int) throws -> Int {
    // Int is 64 bits wide on every platform LuaHost builds for, as Int64 is.
    Int(try arguments.integer(at: position))
  }

  /// Pushes an integer.
  @inlinable
  public func _push(_ arguments: LuaArguments) { arguments.pushInteger(Int64(self)) }
}

extension Double {
  /// The float, made without a state.
  @inlinable
  public var _plainLuaValue: LuaValue? { .number(self) }

  /// Reads a number (an integer converts), in place.
  @inlinable
  public static func _read(_ arguments: LuaArguments, at position: Int) throws -> Double {
    try arguments.number(at: position)
  }

  /// Pushes a float.
  @inlinable
  public func _push(_ arguments: LuaArguments) { arguments.pushNumber(self) }
}

extension Bool {
  /// The boolean, made without a state.
  @inlinable
  public var _plainLuaValue: LuaValue? { .boolean(self) }

  /// Reads `true` or `false` in place.
  @inlinable
  public static func _read(_ arguments: LuaArguments, at position: Int) throws -> Bool {
    if let value = arguments.boolean(at: position) { return value }
    return try arguments.convert(at: position, to: Bool.self)
  }

  /// Pushes a boolean.
  @inlinable
  public func _push(_ arguments: LuaArguments) { arguments.pushBoolean(self) }
}

extension String {
  /// The string, made without a state.
  @inlinable
  public var _plainLuaValue: LuaValue? { .string(LuaString(self)) }

  /// Reads a Lua string of valid UTF-8 in place; anything else (a number, which converts
  /// as Lua formats it, or an error) goes through `init(luaValue:)`.
  @inlinable
  public static func _read(_ arguments: LuaArguments, at position: Int) throws -> String {
    if let text = arguments.text(at: position) { return text }
    return try arguments.convert(at: position, to: String.self)
  }

  /// Pushes the string's UTF-8 bytes (no state needed).
  @inlinable
  public func _push(_ arguments: LuaArguments) throws { try arguments.pushString(self) }
}

extension LuaConvertible {
  /// The value at `position` as `init(luaValue:)` converts it (a failure throws its
  /// conversion error, not a "bad argument" one), by the fast path when it fits. For the
  /// collection conversions, which read tables in place.
  @inlinable  // specialised with the collection conversions that call it
  static func _readValue(_ arguments: LuaArguments, at position: Int) throws -> Self {
    do {
      return try _read(arguments, at: position)
    } catch {
      return try Self(luaValue: arguments[position])
    }
  }
}

extension LuaArguments {
  /// Pushes `value`. Not API. [-0, +1]
  @usableFromInline
  func pushValue(_ value: LuaValue) throws { try stack.push(value) }

  /// Pushes an integer. Not API. [-0, +1]
  @inlinable
  func pushInteger(_ value: Int64) { lua_pushinteger(stack.L, value) }

  /// Pushes a float. Not API. [-0, +1]
  @inlinable
  func pushNumber(_ value: Double) { lua_pushnumber(stack.L, value) }

  /// Pushes a boolean. Not API. [-0, +1]
  @inlinable
  func pushBoolean(_ value: Bool) { lua_pushboolean(stack.L, value ? 1 : 0) }

  /// Pushes a string, refusing one too big for the memory limit as `LuaValue` pushes do.
  /// Not API. [-0, +1]
  @usableFromInline
  func pushString(_ value: String) throws {
    if value.utf8.count > 4096 {
      try stack.push(.string(LuaString(value)))
    } else {
      stack.push(value)
    }
  }

  /// The boolean at `position`, or nil for any other value. Not API.
  @usableFromInline
  func boolean(at position: Int) -> Bool? {
    guard mayRead(position), lua_type(stack.L, index(position)) == LUA_TBOOLEAN
    else { return nil }
    return lua_toboolean(stack.L, index(position)) != 0
  }
}
