/// `[String: V]` is coded by ``LuaEncoding`` and ``LuaDecoding`` themselves, with string
/// keys only. Swift's own dictionary coding cannot be used: its coding key gives a string
/// such as `"1"` an `intValue`, so that key would look like one of `[Int: V]`'s (which
/// become Lua integers) and `["1": x]` would turn into `{[1] = x}`.
protocol LuaStringKeyedEncodable {
  /// A table with one string key per entry.
  func encodeStringKeyed(at path: [any CodingKey], options: LuaEncoder) throws -> EncodedValue
}

/// The decoding half of ``LuaStringKeyedEncodable``.
protocol LuaStringKeyedDecodable {
  /// Every pair of `table`, whose keys must all be UTF-8 strings.
  static func decodeStringKeyed(
    _ table: LuaTable, at path: [any CodingKey], options: LuaDecoder
  ) throws -> Self
}

/// A string key of a `[String: V]`, for coding paths.
struct LuaFieldKey: CodingKey {
  let stringValue: String
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
  var intValue: Int? { nil }
}

extension Dictionary: LuaStringKeyedEncodable where Key == String, Value: Encodable {
  func encodeStringKeyed(at path: [any CodingKey], options: LuaEncoder) throws -> EncodedValue {
    let table = EncodedTable()
    table.fields.reserveCapacity(count)
    for (key, value) in self {
      let encoded = try LuaEncoding.encode(
        value, at: path + [LuaFieldKey(stringValue: key)], options: options)
      table.fields.append((key: .string(LuaString(key)), value: encoded))
    }
    return .table(table)
  }
}

extension Dictionary: LuaStringKeyedDecodable where Key == String, Value: Decodable {
  static func decodeStringKeyed(
    _ table: LuaTable, at path: [any CodingKey], options: LuaDecoder
  ) throws -> Self {
    var result: Self = [:]
    // The body decodes nested tables above the iteration's slots; it never changes `table`.
    try table.forEachPair { key, value in
      guard case .string(let string) = key, let text = string.string else {
        let problem =
          key.typeName == "string"
          ? "table key \(LuaDecoding.describe(key)) is not valid UTF-8"
          : "string keys expected, got table with key \(LuaDecoding.describe(key))"
        throw LuaError.decoding(problem, at: path, type: Self.self, value: .table(table))
      }
      result[text] = try LuaDecoding.decode(
        Value.self, from: value, at: path + [LuaFieldKey(stringValue: text)], options: options)
    }
    return result
  }
}
