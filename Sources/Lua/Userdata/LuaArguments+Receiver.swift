import CLua

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the metamethods and typed methods of a userdata type read in place: `self` and
/// the key of `__index`/`__newindex`, with no reference made to either.
extension LuaArguments {
  /// The object of type `Object` that `self` (argument 1) holds.
  /// - Throws: a `runtime` error "bad self: typeName expected, got …" for any other value.
  @usableFromInline
  func receiver<Object: AnyObject>(as type: Object.Type, typeName: String) throws -> Object {
    if let object = object(at: 1, as: Object.self) { return object }
    let got = count >= 1 ? self[1].typeName : "no value"
    throw LuaError(kind: .runtime, message: "bad self: \(typeName) expected, got \(got)")
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
