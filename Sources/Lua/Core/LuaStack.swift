import CLua
import CLuaShim

/// `LUA_REGISTRYINDEX`, which Swift cannot import (it is a computed macro).
let registryIndex: Int32 = -1_000_000 - 1000

/// Stack operations on one Lua thread, with the state's core.
///
/// Every method states its stack effect as [-popped, +pushed]. None of them raises: the
/// ones that could (metamethods) go through the shim's `lh_p*` wrappers, and allocations
/// cannot fail while Swift runs (see `lh_alloc`). The caller makes room with ``reserve(_:)``.
@usableFromInline
struct LuaStack {
  @usableFromInline let L: OpaquePointer
  unowned(unsafe) let core: LuaCore

  // `core` is borrowed: an owned argument costs the caller a retain and this a release
  // (about 40 instructions on every entry into the state), and the stack keeps no count.
  init(_ L: OpaquePointer, _ core: borrowing LuaCore) {
    self.L = L
    self.core = copy core
  }

  /// The stack of a call from Lua to `callback`, with its core, copied as the unretained
  /// reference it is (no retain and release on every call).
  init(_ L: OpaquePointer, borrowing callback: LuaCallback) {
    self.L = L
    core = callback.core
  }

  /// Whether the values Swift pushed above stack index `base` (with the limit off, as
  /// every push from Swift is) fit under the state's memory limit. When they do not, the
  /// collector runs first, as Lua collects before it refuses an allocation, so garbage does
  /// not count; when they still do not fit, they are dropped (the stack is set to `base`),
  /// and the caller reports a memory error. [-0 or -(top-base), +0]
  func resultsFit(above base: Int32) -> Bool {
    let state = lh_getstate(L)!
    if lh_fits(state, 0) != 0 { return true }
    lh_collectgarbage(L)
    if lh_fits(state, 0) != 0 { return true }
    lua_settop(L, base)
    return false
  }

  /// The stack of the state's running thread. Throws when the state is closed.
  init(_ core: borrowing LuaCore) throws {
    self.init(try core.thread(), core)
  }

  var top: Int32 { lua_gettop(L) }

  /// [-n, +0]
  func pop(_ n: Int32 = 1) { lua_settop(L, -n - 1) }

  /// Makes room for `n` more values. [-0, +0]
  func reserve(_ n: Int) throws {
    guard n <= Int(Int32.max), lua_checkstack(L, Int32(n)) != 0 else {
      throw LuaError(usage: "stack overflow: cannot make room for \(n) Lua values")
    }
  }

  // MARK: Reading

  /// The value at `index`, without calling metamethods. [-0, +0]
  func value(at index: Int32) -> LuaValue {
    switch lua_type(L, index) {
    case LUA_TBOOLEAN: return .boolean(lua_toboolean(L, index) != 0)
    case LUA_TNUMBER:
      if lua_isinteger(L, index) != 0 { return .integer(lua_tointegerx(L, index, nil)) }
      return .number(lua_tonumberx(L, index, nil))
    case LUA_TSTRING: return .string(string(at: index))
    case LUA_TTABLE: return .table(LuaTable(reference(at: index)))
    case LUA_TFUNCTION: return .function(LuaFunction(reference(at: index)))
    case LUA_TUSERDATA: return .userdata(LuaUserdata(reference(at: index)))
    case LUA_TTHREAD: return .thread(LuaThread(reference(at: index)))
    case LUA_TLIGHTUSERDATA: return .lightUserdata(lua_touserdata(L, index))
    default: return .nil
    }
  }

  /// The bytes of the string at `index`; the value must be a string (no number conversion).
  func string(at index: Int32) -> LuaString {
    var length = 0
    guard let chars = lua_tolstring(L, index, &length) else { return LuaString(bytes: []) }
    return LuaString(bytes: UnsafeRawBufferPointer(start: chars, count: length))
  }

  /// A registry reference to the value at `index`. [-0, +0]
  func reference(at index: Int32) -> LuaReference {
    let identity = lua_topointer(L, index)
    lua_pushvalue(L, index)
    let ref = luaL_ref(L, registryIndex)
    return LuaReference(core: core, ref: ref, identity: identity)
  }

  // MARK: Pushing

  /// Pushes `value`. [-0, +1] Throws when a reference belongs to another state.
  func push(_ value: LuaValue) throws {
    switch value {
    case .nil: lua_pushnil(L)
    case .boolean(let b): lua_pushboolean(L, b ? 1 : 0)
    case .integer(let i): lua_pushinteger(L, i)
    case .number(let d): lua_pushnumber(L, d)
    case .string(let s):
      // A Swift push is never refused by the allocator (no Swift frame may see a raise), so
      // a big string that does not fit under the memory limit is refused here instead.
      if s.bytes.count > 4096, lh_fits(lh_getstate(L), s.bytes.count) == 0 {
        throw LuaError(kind: .memory, message: "not enough memory")
      }
      push(s)
    case .lightUserdata(let p): lua_pushlightuserdata(L, p)
    case .table(let t): try push(t.reference)
    case .function(let f): try push(f.reference)
    case .userdata(let u): try push(u.reference)
    case .thread(let t): try push(t.reference)
    }
  }

  /// [-0, +1]
  func push(_ string: LuaString) {
    string.bytes.withUnsafeBufferPointer(pushBytes)
  }

  /// [-0, +1]
  func push(_ string: String) {
    var string = string
    string.withUTF8(pushBytes)
  }

  /// Pushes bytes as a Lua string (an empty buffer may have no base address). [-0, +1]
  private func pushBytes(_ buffer: UnsafeBufferPointer<UInt8>) {
    _ = lua_pushlstring(
      L, buffer.baseAddress.map(UnsafeRawPointer.init) ?? UnsafeRawPointer(bitPattern: 1),
      buffer.count)
  }

  /// [-0, +1]
  func push(_ reference: LuaReference) throws {
    guard reference.core === core else {
      throw LuaError(usage: "a Lua value was used with a state it does not belong to")
    }
    lua_rawgeti(L, registryIndex, lua_Integer(reference.ref))
  }

  /// Pushes a Lua function that runs `callback`. [-0, +1]
  func push(_ callback: LuaCallback) throws {
    try reserve(3)
    lh_pushswiftfunction(L, retainBox(callback))
  }

  /// Replaces the member table at the top with a userdata type's `__index`, which returns
  /// the table's functions (methods) itself and runs `callback` for any other key, with
  /// (self, key, the key's value in the table or nil); see `lh_pushindexfunction`. The
  /// caller has made room for 3 values. [-1, +1]
  func pushIndex(_ callback: LuaCallback) {
    lh_pushindexfunction(L, retainBox(callback))
  }

  // MARK: Protected operations

  /// Calls the function below `arguments` values and returns how many results it pushed.
  /// [-(arguments+1), +results] On error, pops the function and arguments and throws.
  func call(arguments: Int32, results: Int32 = LUA_MULTRET) throws -> Int32 {
    let base = top - arguments - 1
    let status = underDeadline { lh_pcall(L, arguments, results) }
    guard status == LUA_OK else { throw popError(status: status) }
    return top - base
  }

  /// The fast path of ``call(arguments:results:)`` for a function pushed just above
  /// `lh_pushmsgh`'s handler: no stack rotation. [-(arguments+1), +results]; the handler
  /// stays, and the caller resets the top. Throws like `call`.
  func callAboveHandler(arguments: Int32, results: Int32) throws {
    let status = underDeadline { lh_pcallh(L, arguments, results) }
    if status != LUA_OK { throw popError(status: status) }
  }

  /// Runs a protected call under the state's deadline, if any (outermost calls only): its
  /// timeout from now, cut at the state's end of run.
  /// Everything the host runs for a script goes through here: calls, loading, and the
  /// metamethods of table access, comparison, `tostring`, length and concatenation.
  @inline(__always)
  func underDeadline(_ pcall: () -> Int32) -> Int32 {
    guard core.limitsTime, lh_getstate(L).pointee.depth == 0 else { return pcall() }
    let now = Watchdog.now()
    guard let deadline = core.deadline(startingAt: now) else { return pcall() }
    let watchdog = Watchdog.shared
    let target = core.stopTarget
    watchdog.arm(target, deadline: deadline, startingAt: now)
    let status = pcall()
    watchdog.disarm(target)
    lh_clearstop(L)
    return status
  }

  /// Throws the error of a failed protected operation. [-1 or -0 for LH_ERRSTACK, +0]
  func check(_ status: Int32) throws {
    if status != LUA_OK { throw popError(status: status) }
  }

  /// Runs one protected operation (an `lh_p*` wrapper) under the deadline and throws its
  /// error. Stack effect: the operation's.
  func protected(_ operation: () -> Int32) throws {
    let status = underDeadline(operation)
    if status != LUA_OK { throw popError(status: status) }
  }
}
