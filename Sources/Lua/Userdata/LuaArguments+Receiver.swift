import CLua
import CLuaShim

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the metamethods and typed methods of a userdata type read in place: `self` and
/// the key of `__index`/`__newindex`, with no reference made to either.
extension LuaArguments {
  /// Runs `body` with the object of type `Object` that `self` (argument 1) holds, lent
  /// rather than retained: no reference count changes for the call.
  ///
  /// What lending saves: a retain and a release of an object with a weak reference to it
  /// (a view has several) take the runtime's slow path, about 125 instructions of a
  /// property read. What keeps it safe: the userdata's box holds the object, and the state
  /// does not close while Lua code runs in it; but code with the debug library can release
  /// the box while the call runs (`debug.getmetatable(view).__gc(view)` by hand, or
  /// `debug.setlocal` clearing the userdata from the C function's frame before a
  /// collection; a hostile review freed a view so, 2026-12-07). So the object is on the
  /// state's stack of lendings (`lh_lend`) for the call, and a box's release waits while
  /// its object is there (`lh_swift_release`), until the last lending ends. Nested deeper
  /// than that stack, a call retains its receiver.
  /// - Throws: a `runtime` error "bad self: typeName expected, got …" for any other value.
  @inlinable @inline(__always)  // so that `body` is inlined, not called
  func withReceiver<Object: AnyObject, Result>(
    as type: Object.Type, typeName: String, _ body: (Object) throws -> Result
  ) throws -> Result {
    guard mayRead(1), let box = lh_toobject(stack.L, base &+ 1) else {
      throw badReceiver(typeName)
    }
    let state = lh_getstate(stack.L)!
    guard lh_lend(state, box) != 0 else {
      guard let object = object(at: 1, as: Object.self) else { throw badReceiver(typeName) }
      return try body(object)
    }
    defer { if lh_unlend(state) != 0 { lh_swift_release_lent(stack.L) } }
    // The common case, an object of exactly `Object`, needs no dynamic cast, as in
    // `object(at:as:)`. Written out here: a shared helper returning an optional cost about
    // 50 instructions a property read (scripts/bench-counts, 1,432 -> 1,488).
    return try Unmanaged<AnyObject>.fromOpaque(box)._withUnsafeGuaranteedRef { object in
      if ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(Object.self) {
        return try body(unsafeDowncast(object, to: Object.self))
      }
      guard let object = object as? Object else { throw badReceiver(typeName) }
      return try body(object)
    }
  }

  /// "bad self: typeName expected, got …", for a receiver of the wrong type.
  @usableFromInline
  func badReceiver(_ typeName: String) -> LuaError {
    let got = count >= 1 ? self[1].typeName : "no value"
    return LuaError(kind: .runtime, message: "bad self: \(typeName) expected, got \(got)")
  }

  /// The argument at `position` as Swift text, if it is a Lua string (not a number) of
  /// valid UTF-8; short names are copied into the `String` without a heap allocation.
  @usableFromInline
  func text(at position: Int) -> String? {
    guard mayRead(position), lua_type(stack.L, index(position)) == LUA_TSTRING
    else { return nil }
    var length = 0
    guard let chars = lua_tolstring(stack.L, index(position), &length) else { return nil }
    // Lua ends every string with a NUL: without one inside, the C-string initializer
    // validates in one fast pass (the generic `String(validating:)` costs about 1,000
    // instructions even for a short name).
    if strlen(chars) == length { return String(validatingCString: chars) }
    return String(validating: UnsafeRawBufferPointer(start: chars, count: length), as: UTF8.self)
  }
}
