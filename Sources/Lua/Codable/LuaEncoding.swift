#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A value encoded in Swift, not yet made in Lua: ``LuaEncoder`` builds the whole tree
/// first, then ``make(in:)`` creates its tables, so a failure midway leaves nothing in Lua.
enum EncodedValue {
  /// A value with no table in it.
  case value(LuaValue)
  /// A table being filled by containers.
  case table(EncodedTable)
  /// What an encoder handed out by `superEncoder()` holds once its user is done.
  case encoder(LuaEncoding)

  /// The Lua value, with every table created in `state` (raw sets: no metamethods).
  /// - Throws: `usage` when the state is closed or not held by this thread; `memory` for
  ///   a big string that does not fit (``LuaEncoder`` checks the whole size before).
  func make(in state: LuaState) throws -> LuaValue {
    switch self {
    case .value(let value): return value
    case .encoder(let encoder):
      return try (encoder.result ?? .table(EncodedTable())).make(in: state)
    case .table(let encoded):
      let table = try state.makeTable(
        arrayCapacity: encoded.elements.count, fieldCapacity: encoded.fields.count)
      for (offset, element) in encoded.elements.enumerated() {
        let value = try element.make(in: state)
        if !value.isNil { try table.rawSet(.integer(Int64(offset) + 1), value) }
      }
      for (key, field) in encoded.fields {
        try table.rawSet(key, try field.make(in: state))
      }
      return .table(table)
    }
  }

  /// About how many bytes Lua needs for this value (Lua 5.4 on 64 bits): a string 24 plus
  /// its bytes; a table 56, plus 16 per array slot and 32 per field slot (a power of two),
  /// plus 16 for the registry slot that refers to it while it is made.
  var estimatedSize: Int {
    func string(_ value: LuaValue) -> Int {
      if case .string(let string) = value { return 24 + string.bytes.count }
      return 0
    }
    switch self {
    case .value(let value): return string(value)
    case .encoder(let encoder): return encoder.result?.estimatedSize ?? 72
    case .table(let table):
      let fields = table.fields.count
      let slots = fields == 0 ? 0 : 1 << (Int.bitWidth - (fields - 1).leadingZeroBitCount)
      var size = 72 + 16 * table.elements.count + 32 * slots
      for element in table.elements { size += element.estimatedSize }
      for (key, field) in table.fields { size += string(key) + field.estimatedSize }
      return size
    }
  }
}

/// The contents of a table being encoded: elements at 1…n, then fields. A class, so that
/// containers handed out for it fill the same table.
final class EncodedTable {
  var elements: [EncodedValue] = []
  var fields: [(key: LuaValue, value: EncodedValue)] = []
}

extension LuaState {
  /// Refuses to make `bytes` more of Lua values when they would pass the memory limit.
  /// Lua never refuses what Swift allocates (see `lh_alloc`), so the encoder checks first;
  /// as Lua does before it refuses, it collects garbage once when the first check fails.
  /// - Throws: ``LuaError`` of kind `memory`.
  func ensureRoom(for bytes: Int) throws {
    guard let limit = memoryLimit else { return }
    func fits() -> Bool {
      let used = memoryInUse
      return used <= limit && bytes <= limit - used
    }
    if fits() { return }
    collectGarbage()
    if !fits() {
      throw LuaError(
        kind: .memory, message: "not enough memory: the encoded value needs about \(bytes) bytes")
    }
  }
}

/// The `Encoder` behind ``LuaEncoder``: one per value being encoded.
final class LuaEncoding: Encoder {
  let codingPath: [any CodingKey]
  let options: LuaEncoder
  /// What was encoded; nil until a container or `encode` is used.
  var result: EncodedValue?

  init(codingPath: [any CodingKey], options: LuaEncoder) {
    self.codingPath = codingPath
    self.options = options
  }

  var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

  /// Encodes `value` at `path`: `Date`, `Data` and `URL` by the options, `[String: V]`
  /// with string keys (see ``LuaStringKeyedEncodable``), anything else by its own
  /// `encode(to:)`. Errors other than ``LuaError`` come back as one naming `path`.
  static func encode(_ value: some Encodable, at path: [any CodingKey], options: LuaEncoder)
    throws -> EncodedValue
  {
    guard path.count <= options.maxDepth else {
      throw LuaError.encoding(
        "nested deeper than \(options.maxDepth) levels (LuaEncoder.maxDepth)", at: path,
        value: value)
    }
    if let special = try encodeSpecial(value, at: path, options: options) { return special }
    let encoder = LuaEncoding(codingPath: path, options: options)
    do {
      try value.encode(to: encoder)
    } catch {
      throw LuaError.coding(error, at: path)
    }
    return encoder.result ?? .table(EncodedTable())
  }

  private static func encodeSpecial(
    _ value: some Encodable, at path: [any CodingKey], options: LuaEncoder
  ) throws -> EncodedValue? {
    switch value {
    case let date as Date:
      let seconds = date.timeIntervalSince1970
      switch options.dateEncodingStrategy {
      case .secondsSince1970: return .value(wholeIfExact(seconds))
      case .millisecondsSince1970: return .value(wholeIfExact(seconds * 1000))
      case .iso8601: return .value(.string(LuaString(date.formatted(.iso8601))))
      case .deferredToDate: return nil
      }
    case let data as Data:
      switch options.dataEncodingStrategy {
      case .bytes: return .value(.string(LuaString(bytes: data)))
      case .base64: return .value(.string(LuaString(data.base64EncodedString())))
      case .deferredToData: return nil
      }
    case let url as URL: return .value(.string(LuaString(url.absoluteString)))
    case let dictionary as any LuaStringKeyedEncodable:
      return try dictionary.encodeStringKeyed(at: path, options: options)
    default: return nil
    }
  }

  /// An integer when `number` is whole and fits, else a float.
  private static func wholeIfExact(_ number: Double) -> LuaValue {
    Int64(exactly: number).map { .integer($0) } ?? .number(number)
  }

  /// The value for `nil` under the options.
  var encodedNil: EncodedValue {
    .value(options.nilEncodingStrategy == .null ? LuaEncoder.null : .nil)
  }

  /// The table this encoder fills, made on first use.
  func table() -> EncodedTable {
    if case .table(let table) = result { return table }
    let table = EncodedTable()
    result = .table(table)
    return table
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(
      LuaKeyedEncoding<Key>(encoder: self, table: table(), codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    LuaUnkeyedEncoding(encoder: self, table: table(), codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    LuaSingleValueEncoding(encoder: self)
  }
}

// MARK: - Scalars

extension LuaEncoding {
  /// A Lua integer for any Swift integer that fits one.
  /// - Throws: `conversion` for a value beyond `Int64` (e.g. a large `UInt64`).
  func integer<I: FixedWidthInteger>(_ value: I, at path: [any CodingKey]) throws -> LuaValue {
    guard let wide = Int64(exactly: value) else {
      throw LuaError.encoding(
        "\(I.self) \(value) does not fit a Lua integer", at: path, value: value)
    }
    return .integer(wide)
  }

  /// `value` encoded at `path`; the common scalars skip making an encoder for themselves.
  func encode<T: Encodable>(_ value: T, at path: [any CodingKey]) throws -> EncodedValue {
    switch value {
    case let string as String: return .value(.string(LuaString(string)))
    case let bool as Bool: return .value(.boolean(bool))
    case let double as Double: return .value(.number(double))
    case let int as Int: return .value(.integer(Int64(int)))
    default: return try LuaEncoding.encode(value, at: path, options: options)
    }
  }
}
