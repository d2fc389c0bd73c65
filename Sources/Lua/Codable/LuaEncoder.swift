#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Encodes `Encodable` Swift values as Lua values: structs become tables.
///
/// ```swift
/// struct Note: Codable { var title: String; var tags: [String]; var due: Date? }
/// let value = try lua.push(Note(title: "milk", tags: ["shop"], due: nil))
/// try lua.globals().set("note", value)
/// try lua.run("return note.title, #note.tags, note.due")   // "milk", 1, nil
/// ```
///
/// The mapping:
/// - A keyed container (a struct, a class, a `[String: V]`) is a table with string keys;
///   `[Int: V]` has integer keys. An enum case with associated values is Swift's
///   synthesized form, e.g. `{move = {x = 1, y = 2}}`; one with a raw value is its raw value.
/// - An unkeyed container (an array, a set) is a sequence, its elements at 1…n.
/// - `Bool` is a boolean, `String` a string, the integer types integers (a `UInt64` above
///   `Int64.max` is refused, not wrapped), `Double` and `Float` floats.
/// - `nil` follows ``nilEncodingStrategy``; `Date` and `Data` follow their strategies; a
///   `URL` is its absolute string.
///
/// Tables are made in the state passed to ``encode(_:in:)`` and count against its memory
/// limit: when the value would not fit (by an estimate made before any table is created),
/// encoding fails with a `memory` error.
public struct LuaEncoder: Sendable {
  /// How `Date` values are encoded.
  public enum DateEncodingStrategy: Sendable {
    /// Seconds since 1970-01-01 UTC, as `os.time()` counts: an integer when whole,
    /// else a float. The default.
    case secondsSince1970
    /// Milliseconds since 1970-01-01 UTC: an integer when whole, else a float.
    case millisecondsSince1970
    /// An ISO 8601 string in UTC, e.g. `2024-05-01T12:30:00Z` (whole seconds).
    case iso8601
    /// `Date`'s own `Codable` form: seconds since 2001-01-01 UTC, a float.
    case deferredToDate
  }

  /// How `Data` values are encoded.
  public enum DataEncodingStrategy: Sendable {
    /// A Lua string holding the bytes (Lua strings hold any bytes). The default.
    case bytes
    /// A Lua string holding the bytes in Base64.
    case base64
    /// `Data`'s own `Codable` form: a sequence of byte values.
    case deferredToData
  }

  /// How `nil` is encoded.
  public enum NilEncodingStrategy: Sendable {
    /// `nil` is left out, as Lua does: a field that is `nil` has no key, and an array
    /// element that is `nil` leaves a hole (so trailing `nil`s are lost). The default.
    case absent
    /// `nil` is ``LuaEncoder/null``, a NULL light userdata (the value `cjson.null` and
    /// mlua use for JSON's null), for fields and array elements alike: the key or
    /// position survives the round trip. ``LuaDecoder`` always reads it as `nil`.
    case null
  }

  /// The placeholder for `nil` under ``NilEncodingStrategy/null``: a NULL light userdata.
  public static var null: LuaValue { .lightUserdata(nil) }

  /// How `Date` values are encoded; ``DateEncodingStrategy/secondsSince1970`` by default.
  public var dateEncodingStrategy: DateEncodingStrategy = .secondsSince1970
  /// How `Data` values are encoded; ``DataEncodingStrategy/bytes`` by default.
  public var dataEncodingStrategy: DataEncodingStrategy = .bytes
  /// How `nil` is encoded; ``NilEncodingStrategy/absent`` by default.
  public var nilEncodingStrategy: NilEncodingStrategy = .absent
  /// How many levels below the encoded value a value may be nested (200 by default): a
  /// field of the top value is 1 level down. Deeper values, such as a class graph that
  /// refers to itself, fail with a `conversion` error instead of overflowing the stack.
  public var maxDepth = 200
  /// Values handed to the encoded types' `encode(to:)` as `encoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

  /// Creates an encoder with the default strategies.
  public init() {}

  /// Encodes `value` as a Lua value; tables are created in `state`.
  ///
  /// The whole value is encoded in Swift first and only then turned into tables, so a
  /// value that cannot be encoded, or would not fit under the memory limit, leaves no
  /// half-made table behind in Lua.
  /// - Throws: ``LuaError`` of kind `conversion` for a value that has no Lua form (its
  ///   message names the coding path, see ``LuaError/underlying`` for the
  ///   `EncodingError`), `memory` when the tables would pass the state's memory limit, or
  ///   `usage` when the state is closed or not held by this thread.
  public func encode(_ value: some Encodable, in state: LuaState) throws -> LuaValue {
    let encoded = try LuaEncoding.encode(value, at: [], options: self)
    try state.ensureRoom(for: encoded.estimatedSize)
    return try encoded.make(in: state)
  }
}
