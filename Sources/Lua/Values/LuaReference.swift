/// A registry slot holding a Lua value that Swift refers to.
///
/// The slot is queued for release when the last Swift copy is dropped (on any thread) and
/// freed at the state's next operation. The core stays alive while references exist, so
/// using a reference after `close()` throws instead of touching freed memory.
final class LuaReference {
  let core: LuaCore
  let ref: Int32
  /// `lua_topointer` of the value: its identity for equality and hashing.
  let identity: UnsafeRawPointer?

  init(core: LuaCore, ref: Int32, identity: UnsafeRawPointer?) {
    self.core = core
    self.ref = ref
    self.identity = identity
  }

  deinit { core.release(ref) }

  /// The stack of the owning state's running thread, with this value pushed. [-0, +1]
  func pushed() throws -> LuaStack {
    let stack = try LuaStack(core)
    try stack.reserve(4)
    try stack.push(self)
    return stack
  }
}
