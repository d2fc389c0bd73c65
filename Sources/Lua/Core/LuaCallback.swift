import CLua
import CLuaShim

/// A Swift closure that Lua can call, retained by the Lua closure that wraps it.
///
/// `body` reads its arguments from the stack (1…top: a body that needs the count reads the
/// top itself), pushes its results and returns how many; it throws instead of raising.
/// `lh_swift_dispatch` turns a throw into an error value that the C trampoline raises after
/// this frame is gone.
final class LuaCallback {
  typealias Body = (LuaStack) throws -> Int32
  unowned(unsafe) let core: LuaCore
  let body: Body
  /// A lock every call of this closure holds (see ``LuaState/withCallbackGate(_:_:)``).
  let gate: ReentrantLock?

  init(core: LuaCore, body: @escaping Body) {
    self.core = core
    self.body = body
    gate = core.callbackGate
  }

  /// Wraps a closure over `[LuaValue]`.
  convenience init(core: LuaCore, values: @escaping ([LuaValue]) throws -> [LuaValue]) {
    self.init(core: core) { stack in
      let argc = stack.top
      var arguments: [LuaValue] = []
      arguments.reserveCapacity(Int(argc))
      if argc > 0 { for i in 1...argc { arguments.append(stack.value(at: i)) } }
      let results = try values(arguments)
      return try stack.push(results: results)
    }
  }
}

extension LuaStack {
  /// Pushes results for return to Lua. [-0, +count]
  func push(results: [LuaValue]) throws -> Int32 {
    try reserve(results.count)
    for value in results { try push(value) }
    return Int32(results.count)
  }
}

/// Called by the C trampoline (`lh_trampoline`) each time Lua calls a Swift closure.
/// Catches everything: a Swift error becomes an error value on the stack and -1. The
/// trampoline makes `L` the state's current thread for the call, and frees what Swift
/// dropped meanwhile as the call returns (`lh_dispatchboxed`), so this stays one frame.
@_cdecl("lh_swift_dispatch")
func luaSwiftDispatch(_ L: OpaquePointer?, _ box: UnsafeMutableRawPointer?) -> Int32 {
  guard let L, let box else { return 0 }
  // Borrowed, not retained (a retain and a release fewer per call): the Lua closure being
  // called holds the box as its upvalue until it returns.
  return Unmanaged<LuaCallback>.fromOpaque(box)._withUnsafeGuaranteedRef { callback in
    let stack = LuaStack(L, borrowing: callback)
    do {
      if callback.gate != nil { return try dispatchThroughGate(callback, stack) }
      return try callback.body(stack)
    } catch {
      stack.pushError(error)
      return -1
    }
  }
}

/// Called by the C trampoline as a Swift closure returns to Lua, when Swift dropped
/// registry references during the call (see ``LuaCore/releaseQueued(_:)``).
@_cdecl("lh_swift_drain")
func luaSwiftDrain(_ L: OpaquePointer?) {
  guard let L, let owner = lh_getstate(L).pointee.owner else { return }
  Unmanaged<LuaCore>.fromOpaque(owner)._withUnsafeGuaranteedRef { $0.releaseQueued(L) }
}

/// A call of a callback that holds its gate (see ``LuaState/withCallbackGate(_:_:)``): out
/// of line, so that the ungated call above stays small enough to be inlined.
@inline(never)
private func dispatchThroughGate(_ callback: LuaCallback, _ stack: LuaStack) throws -> Int32 {
  guard let gate = callback.gate else { return try callback.body(stack) }
  try gate.lockOrRefuse()
  defer { gate.unlock() }
  return try callback.body(stack)
}

/// Called from `__gc` of a box userdata: Lua no longer references the Swift object.
///
/// A method or property call under way may have the object lent (`withReceiver`): the
/// release then waits until no call has it (`LuaCore.releaseLent`).
@_cdecl("lh_swift_release")
func luaSwiftRelease(_ L: OpaquePointer?, _ box: UnsafeMutableRawPointer?) {
  guard let L, let box else { return }
  let state = lh_getstate(L)!
  if let owner = state.pointee.owner {
    let core = Unmanaged<LuaCore>.fromOpaque(owner).takeUnretainedValue()
    if let count = core.liveBoxes[box] { core.liveBoxes[box] = count > 1 ? count - 1 : nil }
    if state.pointee.lent_count > 0, lh_islent(state, box) != 0 {
      core.lentReleases.append(box)
      state.pointee.lent_released = 1
      return
    }
  }
  Unmanaged<AnyObject>.fromOpaque(box).release()
}

/// Runs the releases that waited for lent receivers (see `luaSwiftRelease`), as the last
/// lending ends (`withReceiver`).
@_cdecl("lh_swift_release_lent")
func luaSwiftReleaseLent(_ L: OpaquePointer?) {
  guard let L else { return }
  let state = lh_getstate(L)!
  state.pointee.lent_released = 0
  guard let owner = state.pointee.owner else { return }
  let core = Unmanaged<LuaCore>.fromOpaque(owner).takeUnretainedValue()
  let boxes = core.lentReleases
  core.lentReleases = []
  for box in boxes { Unmanaged<AnyObject>.fromOpaque(box).release() }
}
