import CLua
import CLuaShim

/// A Swift error travelling through Lua as a userdata.
final class SwiftErrorBox {
  let error: any Error
  init(_ error: any Error) { self.error = error }
}

extension LuaStack {
  /// Turns the error of a failed protected call into a `LuaError`. [-1, +0] (-0 for
  /// `LH_ERRSTACK`, which pushes nothing.)
  func popError(status: Int32) -> LuaError {
    var error = uncharged(status: status)
    if error.memoryAccount == nil { error.memoryAccount = core.memoryAccount }
    return error
  }

  private func uncharged(status: Int32) -> LuaError {
    if status == LH_ERRSTACK {
      return LuaError(usage: "stack overflow: cannot make room on the Lua stack")
    }
    let traceback = LuaTraceback(taking: lh_take_trace(L))
    defer { pop() }
    if let stop = LuaError(stopReason: lh_stop_reason(L, -1), traceback: traceback) {
      return stop
    }
    if let box = object(at: -1) as? SwiftErrorBox {
      if var carried = box.error as? LuaError {
        if carried.traceback.isEmpty { carried.traceback = traceback }
        return carried
      }
      return LuaError(
        kind: .swift, message: String(describing: box.error), value: value(at: -1),
        traceback: traceback, underlying: box.error)
    }
    let message = traceback.handlerMessage ?? errorMessage(at: -1)
    let kind: LuaError.Kind
    switch status {
    case LUA_ERRSYNTAX: kind = .syntax(incomplete: message.hasSuffix("<eof>"))
    case LUA_ERRMEM: kind = .memory
    case LUA_ERRERR: kind = .messageHandler
    default: kind = .runtime
    }
    return LuaError(kind: kind, message: message, value: value(at: -1), traceback: traceback)
  }

  /// A readable message for the error value at `index`, as `lua.c` would print it.
  /// `__tostring` runs inside a protected call. [-0, +0]
  func errorMessage(at index: Int32) -> String {
    let index = lua_absindex(L, index)
    switch lua_type(L, index) {
    case LUA_TSTRING: return string(at: index).description
    case LUA_TNUMBER: return value(at: index).description
    default: break
    }
    let typeName = String(cString: lua_typename(L, lua_type(L, index)))
    guard (try? reserve(3)) != nil, luaL_getmetafield(L, index, "__tostring") != LUA_TNIL else {
      return "(error object is a \(typeName) value)"
    }
    // The metamethod itself, as lua.c's handler calls it: only a string result is the
    // message (`luaL_tolstring` would also take a number).
    lua_pushvalue(L, index)
    let status = underDeadline { lh_pcall(L, 1, 1) }
    defer { pop() }
    guard status == LUA_OK else {
      let inner = lua_type(L, -1) == LUA_TSTRING ? string(at: -1).description : "?"
      return "(error object is a \(typeName) value; its __tostring failed: \(inner))"
    }
    guard lua_type(L, -1) == LUA_TSTRING else { return "(error object is a \(typeName) value)" }
    return string(at: -1).description
  }

  /// Pushes `error` as a Lua error value. [-0, +1]
  ///
  /// A runtime `LuaError` from this state re-raises its original value, so Lua code sees
  /// what was thrown; anything else travels as a userdata holding the Swift error, whose
  /// `tostring` is the error's description.
  func pushError(_ error: any Error) {
    guard (try? reserve(8)) != nil else {
      // The stack cannot grow: reuse the slot Lua keeps free for C functions.
      lua_pushnil(L)
      return
    }
    if let luaError = error as? LuaError, luaError.kind == .runtime {
      if luaError.value.isNil {
        push(luaError.message)
        return
      }
      if (try? push(luaError.value)) != nil { return }
    }
    if (try? pushObject(SwiftErrorBox(error), cached: false)) == nil { lua_pushnil(L) }
  }
}

extension LuaError {
  /// The error of a stop (an LH_STOP_* reason), or nil for none and for a Ctrl-C, which
  /// raises an ordinary error ("interrupted!").
  init?(stopReason: Int32, traceback: LuaTraceback = LuaTraceback()) {
    switch stopReason {
    case Int32(LH_STOP_TIMEOUT):
      self.init(kind: .timeout, message: "execution timed out", traceback: traceback)
    case Int32(LH_STOP_INTERRUPT):
      self.init(kind: .interrupted, message: "interrupted", traceback: traceback)
    case Int32(LH_STOP_BUDGET):
      self.init(
        kind: .instructionLimit, message: "instruction limit exceeded", traceback: traceback)
    default: return nil
    }
  }
}
