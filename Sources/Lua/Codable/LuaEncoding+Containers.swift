/// The encoding containers: each fills an ``EncodedTable`` (keyed, unkeyed) or sets its
/// encoder's result (single value). Nothing touches Lua until ``EncodedValue/make(in:)``.
struct LuaKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: LuaEncoding
  let table: EncodedTable
  let codingPath: [any CodingKey]

  private func store(_ value: EncodedValue, for key: Key) {
    table.fields.append((key: LuaCodingPath.luaKey(key), value: value))
  }

  mutating func encodeNil(forKey key: Key) { store(encoder.encodedNil, for: key) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    store(try encoder.encode(value, at: codingPath + [key]), for: key)
  }

  mutating func encode(_ value: Bool, forKey key: Key) { store(.value(.boolean(value)), for: key) }
  mutating func encode(_ value: String, forKey key: Key) {
    store(.value(.string(LuaString(value))), for: key)
  }
  mutating func encode(_ value: Double, forKey key: Key) { store(.value(.number(value)), for: key) }
  mutating func encode(_ value: Float, forKey key: Key) {
    store(.value(.number(Double(value))), for: key)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { try integer(value, key) }

  private func integer(_ value: some FixedWidthInteger, _ key: Key) throws {
    store(.value(try encoder.integer(value, at: codingPath + [key])), for: key)
  }

  // `encodeIfPresent` leaves a `nil` out by default; under the `null` strategy it must
  // write the placeholder instead, so every overload comes here.
  private mutating func present<T: Encodable>(_ value: T?, _ key: Key) throws {
    if let value {
      try encode(value, forKey: key)
    } else if encoder.options.nilEncodingStrategy == .null {
      encodeNil(forKey: key)
    }
  }

  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
    try present(value, key)
  }
  mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try present(value, key) }
  mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
    try present(value, key)
  }
  mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
    try present(value, key)
  }
  mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
    try present(value, key)
  }
  mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try present(value, key) }
  mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try present(value, key) }
  mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
    try present(value, key)
  }
  mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
    try present(value, key)
  }
  mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
    try present(value, key)
  }
  mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try present(value, key) }
  mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
    try present(value, key)
  }
  mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
    try present(value, key)
  }
  mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
    try present(value, key)
  }
  mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
    try present(value, key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = EncodedTable()
    store(.table(nested), for: key)
    return KeyedEncodingContainer(
      LuaKeyedEncoding<NestedKey>(encoder: encoder, table: nested, codingPath: codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = EncodedTable()
    store(.table(nested), for: key)
    return LuaUnkeyedEncoding(encoder: encoder, table: nested, codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    let child = LuaEncoding(codingPath: codingPath + [LuaSuperKey()], options: encoder.options)
    table.fields.append((key: "super", value: .encoder(child)))
    return child
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    let child = LuaEncoding(codingPath: codingPath + [key], options: encoder.options)
    store(.encoder(child), for: key)
    return child
  }
}

struct LuaUnkeyedEncoding: UnkeyedEncodingContainer {
  let encoder: LuaEncoding
  let table: EncodedTable
  let codingPath: [any CodingKey]

  var count: Int { table.elements.count }

  private var nextPath: [any CodingKey] { codingPath + [LuaIndexKey(count)] }

  mutating func encodeNil() { table.elements.append(encoder.encodedNil) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    table.elements.append(try encoder.encode(value, at: nextPath))
  }

  mutating func encode(_ value: Bool) { table.elements.append(.value(.boolean(value))) }
  mutating func encode(_ value: String) {
    table.elements.append(.value(.string(LuaString(value))))
  }
  mutating func encode(_ value: Double) { table.elements.append(.value(.number(value))) }
  mutating func encode(_ value: Float) { table.elements.append(.value(.number(Double(value)))) }
  mutating func encode(_ value: Int) throws { try integer(value) }
  mutating func encode(_ value: Int8) throws { try integer(value) }
  mutating func encode(_ value: Int16) throws { try integer(value) }
  mutating func encode(_ value: Int32) throws { try integer(value) }
  mutating func encode(_ value: Int64) throws { try integer(value) }
  mutating func encode(_ value: UInt) throws { try integer(value) }
  mutating func encode(_ value: UInt8) throws { try integer(value) }
  mutating func encode(_ value: UInt16) throws { try integer(value) }
  mutating func encode(_ value: UInt32) throws { try integer(value) }
  mutating func encode(_ value: UInt64) throws { try integer(value) }

  private func integer(_ value: some FixedWidthInteger) throws {
    table.elements.append(.value(try encoder.integer(value, at: nextPath)))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let nested = EncodedTable()
    let path = nextPath
    table.elements.append(.table(nested))
    return KeyedEncodingContainer(
      LuaKeyedEncoding<NestedKey>(encoder: encoder, table: nested, codingPath: path))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = EncodedTable()
    let path = nextPath
    table.elements.append(.table(nested))
    return LuaUnkeyedEncoding(encoder: encoder, table: nested, codingPath: path)
  }

  mutating func superEncoder() -> any Encoder {
    let child = LuaEncoding(codingPath: nextPath, options: encoder.options)
    table.elements.append(.encoder(child))
    return child
  }
}

struct LuaSingleValueEncoding: SingleValueEncodingContainer {
  let encoder: LuaEncoding

  var codingPath: [any CodingKey] { encoder.codingPath }

  mutating func encodeNil() { encoder.result = encoder.encodedNil }

  mutating func encode<T: Encodable>(_ value: T) throws {
    encoder.result = try encoder.encode(value, at: codingPath)
  }

  mutating func encode(_ value: Bool) { encoder.result = .value(.boolean(value)) }
  mutating func encode(_ value: String) { encoder.result = .value(.string(LuaString(value))) }
  mutating func encode(_ value: Double) { encoder.result = .value(.number(value)) }
  mutating func encode(_ value: Float) { encoder.result = .value(.number(Double(value))) }
  mutating func encode(_ value: Int) throws { try integer(value) }
  mutating func encode(_ value: Int8) throws { try integer(value) }
  mutating func encode(_ value: Int16) throws { try integer(value) }
  mutating func encode(_ value: Int32) throws { try integer(value) }
  mutating func encode(_ value: Int64) throws { try integer(value) }
  mutating func encode(_ value: UInt) throws { try integer(value) }
  mutating func encode(_ value: UInt8) throws { try integer(value) }
  mutating func encode(_ value: UInt16) throws { try integer(value) }
  mutating func encode(_ value: UInt32) throws { try integer(value) }
  mutating func encode(_ value: UInt64) throws { try integer(value) }

  private func integer(_ value: some FixedWidthInteger) throws {
    encoder.result = .value(try encoder.integer(value, at: codingPath))
  }
}
