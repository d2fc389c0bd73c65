/// The decoding containers. A keyed container looks each field up with a raw get; an
/// unkeyed one holds the elements read when it was made (see
/// ``LuaDecoding/elements(of:at:)``).
struct LuaKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let decoder: LuaDecoding
  let table: LuaTable
  let codingPath: [any CodingKey]

  /// The string keys that make a `Key`, then the integer keys that do (`[Int: V]`).
  var allKeys: [Key] {
    var keys: [Key] = []
    try? table.forEachPair { key, _ in
      switch key {
      case .string(let string):
        if let text = string.string, let key = Key(stringValue: text) { keys.append(key) }
      case .integer(let integer):
        if let small = Int(exactly: integer), let key = Key(intValue: small) { keys.append(key) }
      default: break
      }
    }
    return keys
  }

  func contains(_ key: Key) -> Bool {
    guard let value = try? table.rawGet(LuaCodingPath.luaKey(key)) else { return false }
    return !value.isNil
  }

  /// Reads the field for `key` and converts it with `body`. A missing field (`nil`) that
  /// does not convert reports `keyNotFound`, with the same message.
  private func read<T>(_ key: Key, _ body: (LuaValue, [any CodingKey]) throws -> T) throws -> T {
    let value = try table.rawGet(LuaCodingPath.luaKey(key))
    let path = codingPath + [key]
    try LuaDecoding.spend(1, at: path, decoder.options)
    do {
      return try body(value, path)
    } catch let error as LuaError where value.isNil {
      guard case .valueNotFound(_, let context) = error.underlying as? DecodingError,
        context.codingPath.count == path.count
      else { throw error }
      let missing = DecodingError.Context(
        codingPath: codingPath, debugDescription: context.debugDescription)
      throw LuaError.coding(
        context.debugDescription, at: path,
        underlying: DecodingError.keyNotFound(key, missing))
    }
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    LuaDecoding.isNil(try table.rawGet(LuaCodingPath.luaKey(key)))
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try read(key) { try LuaDecoding.decode(T.self, from: $0, at: $1, options: decoder.options) }
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try read(key, LuaDecoding.bool)
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try read(key, LuaDecoding.string)
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try read(key) { try LuaDecoding.number($0, at: $1, as: Double.self) }
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try read(key, LuaDecoding.float)
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }

  private func integer<I: FixedWidthInteger>(_ key: Key) throws -> I {
    try read(key) { try LuaDecoding.integer($0, at: $1, as: I.self) }
  }

  private func child(_ key: Key) throws -> LuaDecoding {
    LuaDecoding(
      value: try table.rawGet(LuaCodingPath.luaKey(key)), codingPath: codingPath + [key],
      options: decoder.options)
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try child(key).container(keyedBy: NestedKey.self)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try child(key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    LuaDecoding(
      value: try table.rawGet("super"), codingPath: codingPath + [LuaSuperKey()],
      options: decoder.options)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
}

struct LuaUnkeyedDecoding: UnkeyedDecodingContainer {
  let decoder: LuaDecoding
  let elements: [LuaValue]
  let codingPath: [any CodingKey]
  private(set) var currentIndex = 0

  init(decoder: LuaDecoding, elements: [LuaValue], codingPath: [any CodingKey]) {
    self.decoder = decoder
    self.elements = elements
    self.codingPath = codingPath
  }

  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  /// The next element and its path; past the end, a `valueNotFound` error.
  private func next<T>(_ type: T.Type) throws -> (LuaValue, [any CodingKey]) {
    let path = codingPath + [LuaIndexKey(currentIndex)]
    guard !isAtEnd else {
      throw LuaError.decoding(
        "value expected, got the end of the array (\(elements.count) elements)", at: path,
        type: T.self, value: .nil)
    }
    return (elements[currentIndex], path)
  }

  private mutating func read<T>(_ body: (LuaValue, [any CodingKey]) throws -> T) throws -> T {
    let (value, path) = try next(T.self)
    let result = try body(value, path)
    currentIndex += 1
    return result
  }

  mutating func decodeNil() throws -> Bool {
    let (value, _) = try next(Never.self)
    guard LuaDecoding.isNil(value) else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let options = decoder.options
    return try read { try LuaDecoding.decode(T.self, from: $0, at: $1, options: options) }
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool { try read(LuaDecoding.bool) }
  mutating func decode(_ type: String.Type) throws -> String { try read(LuaDecoding.string) }
  mutating func decode(_ type: Double.Type) throws -> Double {
    try read { try LuaDecoding.number($0, at: $1, as: Double.self) }
  }
  mutating func decode(_ type: Float.Type) throws -> Float { try read(LuaDecoding.float) }
  mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

  private mutating func integer<I: FixedWidthInteger>() throws -> I {
    try read { try LuaDecoding.integer($0, at: $1, as: I.self) }
  }

  private mutating func child() throws -> LuaDecoding {
    let options = decoder.options
    return try read { LuaDecoding(value: $0, codingPath: $1, options: options) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try child().container(keyedBy: NestedKey.self)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try child().unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder { try child() }
}

struct LuaSingleValueDecoding: SingleValueDecodingContainer {
  let decoder: LuaDecoding

  var codingPath: [any CodingKey] { decoder.codingPath }
  private var value: LuaValue { decoder.value }

  func decodeNil() -> Bool { LuaDecoding.isNil(value) }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try LuaDecoding.decode(T.self, from: value, at: codingPath, options: decoder.options)
  }

  func decode(_ type: Bool.Type) throws -> Bool { try LuaDecoding.bool(value, at: codingPath) }
  func decode(_ type: String.Type) throws -> String {
    try LuaDecoding.string(value, at: codingPath)
  }
  func decode(_ type: Double.Type) throws -> Double {
    try LuaDecoding.number(value, at: codingPath, as: Double.self)
  }
  func decode(_ type: Float.Type) throws -> Float { try LuaDecoding.float(value, at: codingPath) }
  func decode(_ type: Int.Type) throws -> Int { try integer() }
  func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
  func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
  func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
  func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
  func decode(_ type: UInt.Type) throws -> UInt { try integer() }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

  private func integer<I: FixedWidthInteger>() throws -> I {
    try LuaDecoding.integer(value, at: codingPath, as: I.self)
  }
}
