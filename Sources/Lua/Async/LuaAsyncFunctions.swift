import CLua
import CLuaShim

/// The work an async Swift function does once Lua has called it: it runs on the executor
/// of the code that drives the coroutine (see ``LuaCoroutine``), so it may use the values
/// it captured from Lua.
typealias LuaAsyncOperation = nonisolated(nonsending) () async throws -> [LuaValue]

extension LuaStack {
  /// Pushes a Lua function that, when called, has `start` read its arguments and make the
  /// operation (a bad argument raises there, at the call), then suspends its caller until
  /// the operation is done. [-0, +1]
  func push(asyncStarting start: @escaping (LuaArguments) throws -> LuaAsyncOperation) throws {
    try reserve(4)
    // Unowned: Lua holds this closure, and the state holds Lua (a cycle otherwise).
    let callback = LuaCallback(core: core) { [unowned core] stack in
      core.pendingOperation = try start(LuaArguments(uncounted: stack))
      return 0
    }
    lh_pushswiftasyncfunction(L, retainBox(callback))
  }
}

extension LuaState {
  /// A Lua function that runs an `async` Swift function. Lua calls it like any other
  /// function; the calling coroutine suspends while `body` runs, and resumes with its
  /// results, or with its error (a Swift error comes back out of Lua as the same error,
  /// and `pcall` inside Lua catches it).
  ///
  /// It works in code that Swift drives as a coroutine: ``run(_:name:isolation:)``,
  /// ``LuaFunction/call(arguments:isolation:)``, ``LuaCoroutine``. Called anywhere else (a
  /// sync ``LuaFunction/call(arguments:)``, a `coroutine.wrap` of the script's own, a
  /// metamethod), it raises an error saying so.
  ///
  /// `body` runs on the executor of the code that drives the coroutine, after the Lua call
  /// returned to it: it may read its arguments, and use the state only as that code may.
  /// - Throws: `usage` when the state is closed.
  public func function(
    _ body: nonisolated(nonsending) @escaping ([LuaValue]) async throws -> [LuaValue]
  ) throws -> LuaFunction {
    try asyncFunction { arguments in
      let values = (0..<arguments.count).map { arguments[$0 + 1] }
      return { try await body(values) }
    }
  }

  /// An async Lua function from `start`, which reads the arguments when Lua calls it.
  func asyncFunction(_ start: @escaping (LuaArguments) throws -> LuaAsyncOperation) throws
    -> LuaFunction
  {
    let stack = try LuaStack(core)
    try stack.push(asyncStarting: start)
    defer { stack.pop() }
    return LuaFunction(stack.reference(at: -1))
  }

  /// Sets the global `name` to an async Swift function (see the untyped async `function(_:)`).
  /// - Throws: `usage` when the state is closed, or an error from a `__newindex` on `_G`.
  public func register(
    _ name: String,
    _ body: nonisolated(nonsending) @escaping ([LuaValue]) async throws -> [LuaValue]
  ) throws {
    try globals().set(name, .function(function(body)))
  }
}

extension LuaState {
  /// A typed async function's result, converted for the coroutine that waits for it.
  ///
  /// The operation runs after its Lua call returned, outside the state's lock, and the
  /// state may be freed while it waits (the coroutine keeps only the core): `state` is
  /// weak, and the conversion (an array or a record builds a table) takes the lock. A
  /// scalar needs neither (`_plainLuaValue`); a freed state then fails the resumption.
  static func convert<Result: LuaConvertible>(
    _ result: Result, in state: @autoclosure () -> LuaState?
  ) throws -> [LuaValue] {
    if let value = result._plainLuaValue { return [value] }
    guard let state = state() else { throw LuaError(usage: "the Lua state is closed") }
    return try state.withLock { [try result.luaValue(in: $0)] }
  }

  /// A Lua function from a typed `async` Swift closure of 0 arguments (see the
  /// one-argument form).
  public func function<Result: LuaConvertible>(
    _ body: nonisolated(nonsending) @escaping () async throws -> Result
  ) throws -> LuaFunction {
    try asyncFunction { [weak self] arguments in
      return { try Self.convert(try await body(), in: self) }
    }
  }

  /// Sets the global `name` to a typed `async` Swift closure of 0 arguments.
  /// - Throws: `usage` when the state is closed.
  public func register<Result: LuaConvertible>(
    _ name: String, _ body: nonisolated(nonsending) @escaping () async throws -> Result
  ) throws {
    try globals().set(name, .function(function(body)))
  }

  /// A Lua function from a typed `async` Swift closure: arguments are converted when Lua
  /// calls it (a bad one raises an error naming its position, before `body` starts), the
  /// result when `body` returns. There are forms for 0 to 4 arguments.
  ///
  /// ```swift
  /// try lua.register("fetch") { (url: String) async throws -> String in
  ///   try await client.get(url)
  /// }
  /// ```
  ///
  /// `body` runs as the untyped form's does. (Fixed arities, not a parameter pack: Swift
  /// 6.3 crashes compiling a pack of a `nonisolated(nonsending)` closure's parameters.)
  /// - Throws: `usage` when the state is closed.
  public func function<A: LuaConvertible, Result: LuaConvertible>(
    _ body: nonisolated(nonsending) @escaping (A) async throws -> Result
  ) throws -> LuaFunction {
    try asyncFunction { [weak self] arguments in
      let a = try A._read(arguments, at: 1)
      return { try Self.convert(try await body(a), in: self) }
    }
  }

  /// Sets the global `name` to a typed `async` Swift closure of 1 argument.
  /// - Throws: `usage` when the state is closed.
  public func register<A: LuaConvertible, Result: LuaConvertible>(
    _ name: String, _ body: nonisolated(nonsending) @escaping (A) async throws -> Result
  ) throws {
    try globals().set(name, .function(function(body)))
  }

  /// A Lua function from a typed `async` Swift closure of 2 arguments (see the
  /// one-argument form).
  public func function<A: LuaConvertible, B: LuaConvertible, Result: LuaConvertible>(
    _ body: nonisolated(nonsending) @escaping (A, B) async throws -> Result
  ) throws -> LuaFunction {
    try asyncFunction { [weak self] arguments in
      let a = try A._read(arguments, at: 1)
      let b = try B._read(arguments, at: 2)
      return { try Self.convert(try await body(a, b), in: self) }
    }
  }

  /// Sets the global `name` to a typed `async` Swift closure of 2 arguments.
  /// - Throws: `usage` when the state is closed.
  public func register<A: LuaConvertible, B: LuaConvertible, Result: LuaConvertible>(
    _ name: String, _ body: nonisolated(nonsending) @escaping (A, B) async throws -> Result
  ) throws {
    try globals().set(name, .function(function(body)))
  }

  /// A Lua function from a typed `async` Swift closure of 3 arguments (see the
  /// one-argument form).
  public func function<
    A: LuaConvertible, B: LuaConvertible, C: LuaConvertible, Result: LuaConvertible
  >(
    _ body: nonisolated(nonsending) @escaping (A, B, C) async throws -> Result
  ) throws -> LuaFunction {
    try asyncFunction { [weak self] arguments in
      let a = try A._read(arguments, at: 1)
      let b = try B._read(arguments, at: 2)
      let c = try C._read(arguments, at: 3)
      return { try Self.convert(try await body(a, b, c), in: self) }
    }
  }

  /// Sets the global `name` to a typed `async` Swift closure of 3 arguments.
  /// - Throws: `usage` when the state is closed.
  public func register<
    A: LuaConvertible, B: LuaConvertible, C: LuaConvertible, Result: LuaConvertible
  >(
    _ name: String, _ body: nonisolated(nonsending) @escaping (A, B, C) async throws -> Result
  ) throws {
    try globals().set(name, .function(function(body)))
  }

  /// A Lua function from a typed `async` Swift closure of 4 arguments (see the
  /// one-argument form).
  public func function<
    A: LuaConvertible, B: LuaConvertible, C: LuaConvertible, D: LuaConvertible,
    Result: LuaConvertible
  >(
    _ body: nonisolated(nonsending) @escaping (A, B, C, D) async throws -> Result
  ) throws -> LuaFunction {
    try asyncFunction { [weak self] arguments in
      let a = try A._read(arguments, at: 1)
      let b = try B._read(arguments, at: 2)
      let c = try C._read(arguments, at: 3)
      let d = try D._read(arguments, at: 4)
      return { try Self.convert(try await body(a, b, c, d), in: self) }
    }
  }

  /// Sets the global `name` to a typed `async` Swift closure of 4 arguments.
  /// - Throws: `usage` when the state is closed.
  public func register<
    A: LuaConvertible, B: LuaConvertible, C: LuaConvertible, D: LuaConvertible,
    Result: LuaConvertible
  >(
    _ name: String, _ body: nonisolated(nonsending) @escaping (A, B, C, D) async throws -> Result
  ) throws {
    try globals().set(name, .function(function(body)))
  }
}
