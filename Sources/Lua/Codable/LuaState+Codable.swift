extension LuaState {
  /// Makes the Lua value for an `Encodable` Swift value: a struct becomes a table, an
  /// array a sequence, a `String` a string (see ``LuaEncoder`` for the whole mapping).
  ///
  /// The tables are created in this state and count against its ``memoryLimit``. The value
  /// is not pushed anywhere Lua code can see it: store it, e.g. in a global, or pass it to
  /// a function.
  ///
  /// ```swift
  /// try lua.globals().set("note", try lua.push(note))
  /// try lua.run("return note.title")
  /// ```
  /// - Parameters:
  ///   - value: the value to encode.
  ///   - encoder: the strategies for dates, data and `nil`; the defaults when omitted.
  /// - Throws: ``LuaError`` of kind `conversion` for a value with no Lua form (its message
  ///   names the coding path), `memory` when the tables would pass the memory limit, or
  ///   `usage` when the state is closed or not held by this thread.
  public func push(_ value: some Encodable, encoder: LuaEncoder = LuaEncoder()) throws -> LuaValue {
    try encoder.encode(value, in: self)
  }
}

extension Decodable {
  /// Decodes a value of this type from a Lua value (see ``LuaDecoder`` for the mapping).
  ///
  /// ```swift
  /// let note = try Note(luaValue: lua.run("return {title = 'milk', tags = {}}")[0])
  /// ```
  /// For a type that is also ``LuaConvertible`` (`String`, `Int`, arrays of them…), the
  /// ``LuaConvertible`` initializer is the one chosen: it follows Lua's own conversions
  /// (a number converts to a `String`, a Lua string to `[UInt8]`), where this one is strict.
  /// Pass `decoder:` to decode such a type this way.
  /// - Throws: ``LuaError`` of kind `conversion` whose message names the coding path, e.g.
  ///   `notes[2].title: string expected, got number`.
  @_disfavoredOverload
  public init(luaValue: LuaValue, decoder: LuaDecoder = LuaDecoder()) throws {
    self = try decoder.decode(Self.self, from: luaValue)
  }
}
