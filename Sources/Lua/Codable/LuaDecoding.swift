#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The `Decoder` behind ``LuaDecoder``: one per value being decoded. Every table access
/// is raw (``LuaTable/rawGet(_:)`` and raw iteration), and each one takes the state's
/// guard like any other use of the table, so decoding runs no Lua code.
final class LuaDecoding: Decoder {
  let value: LuaValue
  let codingPath: [any CodingKey]
  let options: LuaDecoder

  init(value: LuaValue, codingPath: [any CodingKey], options: LuaDecoder) {
    self.value = value
    self.codingPath = codingPath
    self.options = options
  }

  var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

  /// Decodes a `T` from `value` at `path`: `Date`, `Data` and `URL` by the options,
  /// `[String: V]` from string keys (see ``LuaStringKeyedDecodable``), anything else by its
  /// own `init(from:)`. Errors other than ``LuaError`` come back as
  /// one naming the path (see ``LuaError/coding(_:at:)``).
  static func decode<T: Decodable>(
    _ type: T.Type, from value: LuaValue, at path: [any CodingKey], options: LuaDecoder
  ) throws -> T {
    try checkDepth(path, options)
    if let special = try decodeSpecial(T.self, from: value, at: path, options: options) {
      return special
    }
    do {
      return try T(from: LuaDecoding(value: value, codingPath: path, options: options))
    } catch {
      throw LuaError.coding(error, at: path)
    }
  }

  static func checkDepth(_ path: [any CodingKey], _ options: LuaDecoder) throws {
    try spend(1, at: path, options)
    guard path.count > options.maxDepth else { return }
    let problem = "nested deeper than \(options.maxDepth) levels (LuaDecoder.maxDepth)"
    let context = DecodingError.Context(codingPath: path, debugDescription: problem)
    throw LuaError.coding(problem, at: path, underlying: DecodingError.dataCorrupted(context))
  }

  /// Takes `count` values from the decode's budget (``LuaDecoder/maxValues``): a table
  /// shared many times over (a row a million rows hold) would otherwise make the decoder
  /// build far more than the Lua heap holds, with no limit of the state's reaching it.
  static func spend(_ count: Int, at path: [any CodingKey], _ options: LuaDecoder) throws {
    guard let budget = options.budget else { return }
    budget.left -= count
    guard budget.left < 0 else { return }
    let problem = "more than \(options.maxValues) values (LuaDecoder.maxValues)"
    let context = DecodingError.Context(codingPath: path, debugDescription: problem)
    throw LuaError.coding(problem, at: path, underlying: DecodingError.dataCorrupted(context))
  }

  private static func decodeSpecial<T: Decodable>(
    _ type: T.Type, from value: LuaValue, at path: [any CodingKey], options: LuaDecoder
  ) throws -> T? {
    func text(_ what: String) throws -> String {
      guard case .string(let string) = value else {
        throw LuaError.decodingMismatch(value, expected: what, at: path, type: T.self)
      }
      guard let text = string.string else {
        throw LuaError.decoding(
          "string is not valid UTF-8", at: path, type: T.self, value: value)
      }
      return text
    }
    func corrupted(_ problem: String) -> LuaError {
      let context = DecodingError.Context(codingPath: path, debugDescription: problem)
      return LuaError.coding(problem, at: path, underlying: DecodingError.dataCorrupted(context))
    }
    if T.self == Date.self {
      let date: Date
      switch options.dateDecodingStrategy {
      case .secondsSince1970:
        date = Date(timeIntervalSince1970: try number(value, at: path, as: Date.self))
      case .millisecondsSince1970:
        date = Date(timeIntervalSince1970: try number(value, at: path, as: Date.self) / 1000)
      case .iso8601:
        let string = try text("ISO 8601 date string")
        guard let parsed = try? Date.ISO8601FormatStyle().parse(string) else {
          throw corrupted("string \"\(string.prefix(40))\" is not an ISO 8601 date")
        }
        date = parsed
      case .deferredToDate: return nil
      }
      return date as? T
    }
    if T.self == Data.self {
      switch options.dataDecodingStrategy {
      case .bytes:
        guard case .string(let string) = value else {
          throw LuaError.decodingMismatch(value, expected: "string", at: path, type: T.self)
        }
        return Data(string.bytes) as? T
      case .base64:
        guard let data = Data(base64Encoded: try text("Base64 string")) else {
          throw corrupted("string is not valid Base64")
        }
        return data as? T
      case .deferredToData: return nil
      }
    }
    if let keyed = T.self as? any LuaStringKeyedDecodable.Type {
      guard case .table(let table) = value else {
        throw LuaError.decodingMismatch(value, expected: "table", at: path, type: T.self)
      }
      return try keyed.decodeStringKeyed(table, at: path, options: options) as? T
    }
    if T.self == URL.self {
      let string = try text("URL string")
      guard let url = URL(string: string) else {
        throw corrupted("string \"\(string.prefix(40))\" is not a valid URL")
      }
      return url as? T
    }
    return nil
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    try Self.checkDepth(codingPath, options)
    guard case .table(let table) = value else {
      throw LuaError.decodingMismatch(
        value, expected: "table", at: codingPath, type: [String: Any].self)
    }
    return KeyedDecodingContainer(
      LuaKeyedDecoding<Key>(decoder: self, table: table, codingPath: codingPath))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try Self.checkDepth(codingPath, options)
    guard case .table(let table) = value else {
      throw LuaError.decodingMismatch(value, expected: "table", at: codingPath, type: [Any].self)
    }
    let elements = try Self.elements(of: table, at: codingPath)
    try Self.spend(elements.count, at: codingPath, options)
    return LuaUnkeyedDecoding(decoder: self, elements: elements, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueDecodingContainer {
    LuaSingleValueDecoding(decoder: self)
  }
}

// MARK: - Arrays

extension LuaDecoding {
  /// The elements of a table read as an array: its keys must be integers in 1…n, with at
  /// most half of them missing (holes are `nil`). Read raw, in one pass.
  /// - Throws: `conversion` naming the first key that does not belong in an array.
  static func elements(of table: LuaTable, at path: [any CodingKey]) throws -> [LuaValue] {
    var elements: [LuaValue] = []
    var scattered: [Int64: LuaValue] = [:]
    try table.forEachPair { key, value in
      guard case .integer(let index) = key, index >= 1 else {
        throw LuaError.decoding(
          "array expected, got table with key \(describe(key))", at: path, type: [Any].self,
          value: .table(table))
      }
      // `next` visits the array part in order, so a sequence never reaches the dictionary.
      if index == Int64(elements.count) + 1, scattered.isEmpty {
        elements.append(value)
      } else {
        scattered[index] = value
      }
    }
    guard !scattered.isEmpty else { return elements }
    let count = elements.count + scattered.count
    let largest = max(Int64(elements.count), scattered.keys.max() ?? 0)
    guard largest <= 2 * Int64(count) else {
      throw LuaError.decoding(
        "array expected, got sparse table (largest index \(largest), \(count) values)",
        at: path, type: [Any].self, value: .table(table))
    }
    elements.append(contentsOf: repeatElement(.nil, count: Int(largest) - elements.count))
    for (index, value) in scattered { elements[Int(index) - 1] = value }
    return elements
  }

  /// A key as an error message shows it: strings quoted (and cut short), numbers and
  /// booleans as Lua prints them, other values by type.
  static func describe(_ key: LuaValue) -> String {
    switch key {
    case .string(let string):
      let text = string.description
      return text.count > 40 ? "\"\(text.prefix(40))…\"" : "\"\(text)\""
    case .integer, .number, .boolean: return key.description
    default: return "of type \(key.typeName)"
    }
  }
}

// MARK: - Scalars

extension LuaDecoding {
  /// Whether `value` reads as `nil`: `nil` itself or ``LuaEncoder/null``.
  static func isNil(_ value: LuaValue) -> Bool {
    switch value {
    case .nil, .lightUserdata(nil): true
    default: false
    }
  }

  static func bool(_ value: LuaValue, at path: [any CodingKey]) throws -> Bool {
    guard case .boolean(let bool) = value else {
      throw LuaError.decodingMismatch(value, expected: "boolean", at: path, type: Bool.self)
    }
    return bool
  }

  static func string(_ value: LuaValue, at path: [any CodingKey]) throws -> String {
    guard case .string(let string) = value else {
      throw LuaError.decodingMismatch(value, expected: "string", at: path, type: String.self)
    }
    guard let text = string.string else {
      throw LuaError.decoding(
        "string is not valid UTF-8", at: path, type: String.self, value: value)
    }
    return text
  }

  static func number<T>(_ value: LuaValue, at path: [any CodingKey], as type: T.Type) throws
    -> Double
  {
    switch value {
    case .number(let number): return number
    case .integer(let integer): return Double(integer)
    default: throw LuaError.decodingMismatch(value, expected: "number", at: path, type: T.self)
    }
  }

  static func float(_ value: LuaValue, at path: [any CodingKey]) throws -> Float {
    let number = try number(value, at: path, as: Float.self)
    let float = Float(number)
    guard float.isFinite || !number.isFinite else {
      throw LuaError.decoding(
        "number \(value) does not fit Float", at: path, type: Float.self, value: value)
    }
    return float
  }

  static func integer<I: FixedWidthInteger>(
    _ value: LuaValue, at path: [any CodingKey], as type: I.Type
  ) throws -> I {
    let wide: Int64
    switch value {
    case .integer(let integer): wide = integer
    case .number(let number):
      guard let exact = Int64(exactly: number) else {
        throw LuaError.decoding(
          "number \(value) has no integer representation", at: path, type: I.self,
          value: value)
      }
      wide = exact
    default: throw LuaError.decodingMismatch(value, expected: "integer", at: path, type: I.self)
    }
    guard let fitting = I(exactly: wide) else {
      throw LuaError.decoding(
        "integer \(wide) does not fit \(I.self)", at: path, type: I.self, value: value)
    }
    return fitting
  }
}
