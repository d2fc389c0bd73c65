import CLua
import CLuaShim

/// A Lua 5.4 state: the entry point of the binding.
///
/// A `LuaState` owns its `lua_State` and closes it exactly once, on ``close()`` or when
/// the object is released. Values taken out of it (tables, functions…) keep working until
/// then, and throw a `usage` ``LuaError`` afterwards. A state is confined to one thread at
/// a time; it is not `Sendable`.
///
/// A state that host code shares between threads (a `ScriptedTree` does: its timers and
/// waiting actions run in tasks) is *confined* to its ``lock`` (see ``confine()``): from
/// then on every use from Swift must hold the lock, through ``withLock(_:)`` (or
/// `ScriptedTree.withState`), and a use that does not is a bug that fails at once (a
/// trap in debug builds, a `usage` error in release builds) instead of racing.
///
/// Swift closures registered with a state receive their arguments and need not capture
/// the state; a closure that captures it strongly keeps it alive until ``close()``.
public final class LuaState {
  let core: LuaCore

  /// Creates a state with the given standard libraries.
  /// - Parameters:
  ///   - libraries: the standard libraries to open; ``LuaLibraries/all`` by default.
  ///   - memoryLimit: the most bytes Lua may allocate, or nil for no limit. Reaching it
  ///     raises a catchable memory error inside Lua; it never aborts the process.
  ///   - ignoresEnvironment: whether `package` ignores `LUA_PATH` and `LUA_CPATH` (and
  ///     their `_5_4` forms), as `lua -E` does.
  /// - Throws: ``LuaError`` of kind `memory` when the state cannot be created.
  public init(
    libraries: LuaLibraries = .all, memoryLimit: Int? = nil, ignoresEnvironment: Bool = false
  ) throws {
    guard let core = LuaCore(memoryLimit: nil) else {
      throw LuaError(kind: .memory, message: "not enough memory to create a Lua state")
    }
    self.core = core
    core.owner = self
    let stack = try LuaStack(core)
    let mask = libraries.rawValue | (ignoresEnvironment ? UInt32(LH_OPEN_NOENV) : 0)
    try core.withCollectorPaused {
      try stack.check(lh_openlibs(stack.L, mask))
      if libraries.contains(.coroutine) { try stack.check(lh_trackcoroutines(stack.L)) }
    }
    core.memoryLimit = memoryLimit
  }

  deinit { core.close() }

  /// Closes the state, running pending `__gc` and `__close` handlers. Safe to call twice,
  /// and from any thread: it takes the state's ``lock``, so it waits for code running on
  /// another thread. Called from inside the state's own code (a Swift function that Lua
  /// called), it takes effect once that code has returned to the outermost Swift caller.
  public func close() { core.close() }

  /// The state's one owner: a reentrant lock that every use holds once the state is
  /// ``confine()``d.
  public var lock: ReentrantLock { core.lock }

  /// Where the state's async work runs: a serial executor on threads of LuaHost's own,
  /// never Swift's cooperative pool (see ``LuaExecutor``). A coroutine that waits goes on
  /// there.
  public var executor: LuaExecutor { core.executor }

  /// Whether the state is confined to its ``lock`` (see ``confine()``).
  public var isConfined: Bool { core.isConfined }

  /// Confines the state to its ``lock``: from now on, every use of the state or of values
  /// taken from it must run on a thread that holds the lock (``withLock(_:)``). Call it
  /// before the state is shared between threads; it cannot be undone.
  public func confine() { core.confine() }

  /// Runs `body` (which makes Swift functions for Lua) so that every Swift function made
  /// in it holds `gate` whenever Lua calls it: calls from several states (plugins on their
  /// own threads) into code an app shares then run one at a time. A call whose wait for
  /// `gate` would deadlock fails with a `usage` error instead.
  package func withCallbackGate<T>(_ gate: ReentrantLock, _ body: () throws -> T) rethrows -> T {
    let outer = core.callbackGate
    core.callbackGate = gate
    defer { core.callbackGate = outer }
    return try body()
  }

  /// Runs `body` with the state, holding its ``lock`` (waiting while another thread holds
  /// it). A ``close()`` asked for inside `body` takes effect when the outermost one ends.
  /// - Throws: what `body` throws, or a `usage` ``LuaError`` at once when the wait would never
  ///   end: the thread that holds the lock waits, directly or through others, for a lock
  ///   this thread holds (two states calling into each other from two threads). The
  ///   message names the locks of the cycle.
  public func withLock<T>(_ body: (LuaState) throws -> T) throws -> T {
    try core.withLock { try body(self) }
  }

  /// Whether ``close()`` has run.
  public var isClosed: Bool { core.isClosed }

  /// The global table `_G`.
  /// - Throws: `usage` when the state is closed.
  public func globals() throws -> LuaTable {
    let stack = try LuaStack(core)
    lua_rawgeti(stack.L, registryIndex, lua_Integer(LUA_RIDX_GLOBALS))
    defer { stack.pop() }
    return LuaTable(stack.reference(at: -1))
  }

  /// Bytes currently allocated by Lua.
  public var memoryInUse: Int { core.memoryInUse }

  /// The memory limit in bytes, or nil for none. Applies to allocations made by Lua code.
  public var memoryLimit: Int? {
    get { core.memoryLimit }
    set { core.memoryLimit = newValue }
  }

  /// Runs a full garbage collection.
  public func collectGarbage() {
    guard let stack = try? LuaStack(core) else { return }
    lh_collectgarbage(stack.L)
  }

  /// Switches the collector to generational mode, as the `lua` interpreter does before it
  /// runs a script (`collectgarbage("generational")` then answers as it does there).
  public func useGenerationalCollector() {
    guard let stack = try? LuaStack(core) else { return }
    lh_setgenerational(stack.L)
  }

  /// The number of values on the running thread's stack (for balance checks in tests).
  package var stackTop: Int { (try? LuaStack(core)).map { Int($0.top) } ?? 0 }

  // MARK: Making values

  /// A new empty table.
  /// - Throws: `usage` when the state is closed.
  public func makeTable(arrayCapacity: Int = 0, fieldCapacity: Int = 0) throws -> LuaTable {
    let stack = try LuaStack(core)
    try stack.reserve(1)
    lua_createtable(stack.L, Int32(clamping: arrayCapacity), Int32(clamping: fieldCapacity))
    defer { stack.pop() }
    return LuaTable(stack.reference(at: -1))
  }

  /// A Lua function that runs `body`. A Swift error thrown by `body` becomes a Lua error
  /// that `pcall` can catch and that comes back to a Swift caller as itself.
  /// - Throws: `usage` when the state is closed.
  public func function(_ body: @escaping ([LuaValue]) throws -> [LuaValue]) throws -> LuaFunction {
    let stack = try LuaStack(core)
    try stack.push(LuaCallback(core: core, values: body))
    defer { stack.pop() }
    return LuaFunction(stack.reference(at: -1))
  }

  /// Sets the global `name` to a function that runs `body`.
  /// - Throws: `usage` when the state is closed, or an error from a `__newindex` on `_G`.
  public func register(_ name: String, _ body: @escaping ([LuaValue]) throws -> [LuaValue]) throws {
    try globals().set(name, .function(function(body)))
  }

  /// Wraps a Swift object as a userdata, with the methods registered for its type
  /// (see ``register(_:name:_:)``); Lua keeps the object alive while it references it.
  /// - Throws: `usage` when the state is closed.
  public func userdata(_ object: AnyObject) throws -> LuaValue {
    let stack = try LuaStack(core)
    try stack.pushObject(object)
    defer { stack.pop() }
    return stack.value(at: -1)
  }

  /// Converts a Swift value to a Lua value in this state.
  /// - Throws: `usage` when the state is closed.
  public func value(_ value: some LuaConvertible) throws -> LuaValue {
    try value.luaValue(in: self)
  }
}

extension LuaState {
  /// Lua's version and copyright line, e.g. `Lua 5.4.4  Copyright (C) 1994-2022 Lua.org, PUC-Rio`.
  public static var copyright: String { String(cString: lh_copyright()) }

  /// Turns Lua warnings (`warn`) on or off; they are off by default, as in `lua`.
  public func setWarnings(_ enabled: Bool) {
    guard let stack = try? LuaStack(core) else { return }
    lh_setwarnings(stack.L, enabled ? 1 : 0)
  }
}
