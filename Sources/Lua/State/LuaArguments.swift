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
  /// The number of arguments, or -1 where it is read from the stack only when asked
  /// (``init(uncounted:)``).
  @usableFromInline let knownCount: Int
  /// The stack index just below position 1: 0, or 1 past a method's `self`.
  @usableFromInline let base: Int32
  /// The method named in conversion errors, as Lua's own methods name theirs.
  @usableFromInline let method: String?

  /// The number of arguments Lua passed (after `self`, for ``afterSelf(method:)``).
  @inlinable
  public var count: Int {
    knownCount >= 0 ? knownCount : max(Int(lua_gettop(stack.L) &- base), 0)
  }

  @inlinable  // so that the caller sees `method` is nil, and destroys nothing
  init(stack: LuaStack, count: Int32) {
    self.stack = stack
    knownCount = Int(count)
    base = 0
    method = nil
  }

  /// The arguments of the running call from Lua, counted only when asked (``count``), so
  /// that a call whose reads need no count spends no `lua_gettop` on it. Valid while the
  /// stack holds the call's arguments and nothing above them, as it does until the call
  /// pushes its results.
  @inlinable  // so that the caller sees `method` is nil, and destroys nothing
  init(uncounted stack: LuaStack) {
    self.stack = stack
    knownCount = -1
    base = 0
    method = nil
  }

  /// The positions a read of arguments not counted may hand to Lua without counting them:
  /// each is an acceptable index, as Lua gives a C function `LUA_MINSTACK` (20) slots and
  /// `base` is at most 1, and one past the last argument is above the stack's top, which
  /// Lua reads as no value, as a read past ``count`` does.
  @usableFromInline static let uncountedReach = 16

  /// Whether `position` may be read on the stack directly: it is within the count, or,
  /// for arguments not counted, within ``uncountedReach`` (further, they are counted).
  @inlinable
  func mayRead(_ position: Int) -> Bool {
    guard position >= 1 else { return false }
    if knownCount >= 0 { return position <= knownCount }
    return position <= Self.uncountedReach || position <= count
  }

  /// The `count` values above stack index `base` (results of a call), or a vehicle for
  /// pushes (`count` 0).
  @inlinable  // so that the caller sees `method` is nil, and destroys nothing
  init(stack: LuaStack, base: Int32, count: Int32) {
    self.stack = stack
    knownCount = Int(count)
    self.base = base
    method = nil
  }

  /// The state the call runs in: for building tables by hand, or `luaValue(in:)`.
  /// - Throws: `usage` when the `LuaState` object is gone while its code still runs (its
  ///   last reference was dropped inside a call it made, and the close waits for the call
  ///   to return).
  public var state: LuaState {
    get throws {
      guard let owner = stack.core.owner else { throw LuaError(usage: "the Lua state is closed") }
      return owner
    }
  }

  /// The arguments after the first, as a method called `object:name(…)` sees them:
  /// position 1 is the argument after `self`, and a conversion error reads
  /// "bad argument #1 to 'name' (…)", as Lua's own methods report it.
  public func afterSelf(method name: String) -> LuaArguments {
    LuaArguments(self, droppingFirst: name)
  }

  private init(_ arguments: LuaArguments, droppingFirst method: String) {
    stack = arguments.stack
    knownCount = max(arguments.count - 1, 0)
    base = arguments.base + 1
    self.method = method
  }

  /// The stack index of `position`, which must be in 1…count.
  func index(_ position: Int) -> Int32 { base + Int32(position) }

  /// The argument at `position` (1-based), or `nil` past the end.
  public subscript(position: Int) -> LuaValue {
    guard mayRead(position) else { return .nil }
    return stack.value(at: index(position))
  }

  /// The length in bytes of the string at `position`, read in place (no byte is copied);
  /// nil for anything that is not a string, a number included. For bounding what a script
  /// hands over before copying it: reading a 50 MB string as a ``LuaValue`` copies all of it.
  public func stringByteCount(at position: Int) -> Int? {
    guard mayRead(position), lua_type(stack.L, index(position)) == LUA_TSTRING else {
      return nil
    }
    return Int(lua_rawlen(stack.L, index(position)))
  }

  /// The Swift object of type `T` that the userdata at `position` holds, read in place
  /// (no reference to the userdata is made); nil for anything else.
  public func object<T: AnyObject>(at position: Int, as type: T.Type = T.self) -> T? {
    guard mayRead(position), let object = stack.object(at: index(position))
    else { return nil }
    // The common case, an object of exactly `T`, needs no dynamic cast (about 200
    // instructions on every method call and property read); a subclass takes the cast.
    if ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(T.self) {
      return unsafeDowncast(object, to: T.self)
    }
    return object as? T
  }

  /// The integer at `position`; a float with an exact integer value also converts.
  /// - Throws: a `runtime` error "bad argument #n (…)" for any other value.
  @inlinable  // an integer is read with two C calls and no Swift call
  public func integer(at position: Int) throws -> Int64 {
    if mayRead(position) {
      let index = base &+ Int32(truncatingIfNeeded: position)
      // lua_isinteger is true for an integer only, never for a string that converts.
      if lua_isinteger(stack.L, index) != 0 { return lua_tointegerx(stack.L, index, nil) }
    }
    return try _integerConverting(at: position)
  }

  /// The integer at `position` when it is not an integer value (a float with an exact
  /// integer value converts). Not API.
  @usableFromInline
  func _integerConverting(at position: Int) throws -> Int64 {
    try convert(at: position, to: Int64.self)
  }

  /// The number at `position` (an integer converts to `Double`).
  /// - Throws: a `runtime` error "bad argument #n (…)" for a non-number.
  @inlinable  // a number is read with two C calls and no Swift call
  public func number(at position: Int) throws -> Double {
    if mayRead(position) {
      let index = base &+ Int32(truncatingIfNeeded: position)
      if lua_type(stack.L, index) == LUA_TNUMBER { return lua_tonumberx(stack.L, index, nil) }
    }
    return try _numberConverting(at: position)
  }

  /// The number at `position` when it is not a number (which fails). Not API.
  @usableFromInline
  func _numberConverting(at position: Int) throws -> Double {
    try convert(at: position, to: Double.self)
  }

  /// The argument at `position` converted to `T` (a missing argument converts from `nil`).
  /// - Throws: a `runtime` error "bad argument #n (…)" when it does not convert.
  public func convert<T: LuaConvertible>(at position: Int, to type: T.Type = T.self) throws -> T {
    do {
      return try T(luaValue: self[position])
    } catch let error as LuaError {
      let function = method.map { " to '\($0)'" } ?? ""
      throw LuaError(
        kind: .runtime, message: "bad argument #\(position)\(function) (\(error.message))")
    }
  }

  /// The arguments from position 1 on, converted to `types` in order (missing ones convert
  /// from `nil`; extra ones are ignored): `let (a, b) = try arguments.convert(to: Int.self,
  /// String.self)`. Read in place, like ``convert(at:to:)``.
  /// - Throws: a `runtime` error "bad argument #n (…)" for the first that does not convert.
  @inlinable
  public func convert<each T: LuaConvertible>(to types: repeat (each T).Type) throws -> (
    repeat each T
  ) {
    var position = 0
    func next<U: LuaConvertible>(_ type: U.Type) throws -> U {
      position += 1
      return try U._read(self, at: position)
    }
    return (repeat try next((each T).self))
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
    // One result needs no room check: Lua gives a C function LUA_MINSTACK free slots.
    try _function(results: { arguments in
      try body(arguments)._push(arguments)
      return 1
    })
  }

  /// A Lua function that runs `body` with its arguments read in place, returning no
  /// result (`Void`) or several (a tuple such as `(Int, String)`), in order.
  /// - Throws: `usage` when the state is closed.
  @inlinable @_disfavoredOverload
  public func function<each Result: LuaConvertible>(
    arguments body: @escaping (LuaArguments) throws -> (repeat each Result)
  ) throws -> LuaFunction {
    try _function(results: { arguments in
      let results = try body(arguments)
      return try arguments.push(repeat each results)
    })
  }

  /// A Lua function whose body reads its arguments in place and returns one value. Not
  /// API: the inlinable typed `function`s are built on it.
  @usableFromInline
  func _function(_ body: @escaping (LuaArguments) throws -> LuaValue) throws -> LuaFunction {
    try _function(stack: { stack in
      let result = try body(LuaArguments(uncounted: stack))
      try stack.reserve(1)
      try stack.push(result)
      return 1
    })
  }

  /// A Lua function whose body reads its arguments from the stack and pushes its results
  /// itself, returning how many: one closure call fewer per call than
  /// `_function(results:)`, for the fixed-arity typed functions. Not API.
  @usableFromInline
  func _function(stack body: @escaping (LuaStack) throws -> Int32) throws -> LuaFunction {
    let stack = try LuaStack(core)
    try stack.push(LuaCallback(core: core, body: body))
    defer { stack.pop() }
    return LuaFunction(stack.reference(at: -1))
  }

  /// A Lua function whose body reads its arguments in place and pushes its results itself
  /// (with `LuaArguments.push`), returning how many. Not API.
  @usableFromInline
  func _function(results body: @escaping (LuaArguments) throws -> Int32) throws -> LuaFunction {
    try _function(stack: { stack in try body(LuaArguments(uncounted: stack)) })
  }

  /// Sets the global `name` to a function that runs `body` (see the one-result
  /// `function(arguments:)`).
  /// - Throws: `usage` when the state is closed, or an error from a `__newindex` on `_G`.
  @inlinable
  public func register<Result: LuaConvertible>(
    _ name: String, arguments body: @escaping (LuaArguments) throws -> Result
  ) throws {
    try globals().set(name, .function(function(arguments: body)))
  }

  /// Sets the global `name` to a function that runs `body` and returns nothing or a tuple
  /// (see the several-result `function(arguments:)`).
  /// - Throws: `usage` when the state is closed, or an error from a `__newindex` on `_G`.
  @inlinable @_disfavoredOverload
  public func register<each Result: LuaConvertible>(
    _ name: String, arguments body: @escaping (LuaArguments) throws -> (repeat each Result)
  ) throws {
    try globals().set(name, .function(function(arguments: body)))
  }
}

extension LuaArguments {
  /// Pushes `results` above the arguments, for return to Lua. Not API. [-0, +n]
  @inlinable
  func push<each Result: LuaConvertible>(_ results: repeat each Result) throws -> Int32 {
    var count: Int32 = 0
    for _ in repeat (each Result).self { count += 1 }
    try reserve(Int(count))
    for result in repeat each results { try result._push(self) }
    return count
  }

  /// Makes room for `count` pushes. Not API.
  @usableFromInline
  func reserve(_ count: Int) throws { try stack.reserve(count) }

  /// Pushes one result. Not API. [-0, +1]
  @usableFromInline
  func push(_ value: LuaValue) throws {
    try reserve(1)
    try pushValue(value)
  }
}
