import CLua

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the metamethods and typed methods of a userdata type read in place: `self` and
/// the key of `__index`/`__newindex`, with no reference made to either.
extension LuaArguments {
  /// Runs `body` with the object of type `Object` that `self` (argument 1) holds.
  ///
  /// The object is retained for the call, not lent. Lent (`_withUnsafeGuaranteedRef`),
  /// a property read cost about 125 instructions less (a view's retain and release take
  /// the runtime's slow path), but code with the debug library can release the box while
  /// the call runs: `debug.getmetatable(view).__gc(view)` by hand, or `debug.setlocal`
  /// clearing the userdata from the C function's frame before a collection. A tap then
  /// routed its error from a freed view (a hostile review, 2026-12-07).
  /// - Throws: a `runtime` error "bad self: typeName expected, got …" for any other value.
  @inlinable @inline(__always)  // so that `body` is inlined, not called
  func withReceiver<Object: AnyObject, Result>(
    as type: Object.Type, typeName: String, _ body: (Object) throws -> Result
  ) throws -> Result {
    guard let object = object(at: 1, as: Object.self) else { throw badReceiver(typeName) }
    return try body(object)
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
