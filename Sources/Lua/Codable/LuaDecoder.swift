#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Decodes `Decodable` Swift values from Lua values: tables become structs.
///
/// ```swift
/// let value = try lua.run("return {title = 'milk', tags = {'shop'}}")[0]
/// let note = try Note(luaValue: value)        // or LuaDecoder().decode(Note.self, from: value)
/// ```
///
/// The mapping is ``LuaEncoder``'s, read back strictly:
/// - A struct or class reads a table's string keys; keys it does not know, and keys that
///   are not strings, are ignored. A `[String: V]` reads every pair, and any key that is not
///   a UTF-8 string fails, naming the key; an `[Int: V]` reads integer keys.
/// - An array reads a table whose keys are exactly 1…n (an empty table is an empty array).
///   Holes are allowed (they read as `nil`, as ``LuaEncoder/NilEncodingStrategy/absent``
///   writes them), but at most half of 1…n may be missing; a table with any other key is
///   not an array and fails, naming the key.
/// - `Bool` takes only booleans and `String` only strings (valid UTF-8; any other bytes
///   fail: decode `Data` to get them). An integer type takes an integer, or a float with
///   an integral value, that fits it (`2.0` is fine, `2.5` and `300` for `UInt8` fail);
///   `Double` and `Float` take any number.
/// - `nil`, and ``LuaEncoder/null``, are `nil` for an optional; a missing field of an
///   optional type is `nil`.
///
/// Tables are read raw: no metamethod (`__index`, `__pairs`, `__len`…) ever runs, so a
/// table from untrusted code cannot run code while it is decoded. Nesting deeper than
/// ``maxDepth`` fails, so a table that contains itself cannot overflow the stack when
/// decoded into a recursive type.
///
/// Errors name the coding path, e.g. `notes[2].title: string expected, got number`.
public struct LuaDecoder: Sendable {
  /// How `Date` values are decoded.
  public enum DateDecodingStrategy: Sendable {
    /// Seconds since 1970-01-01 UTC, an integer or a float. The default.
    case secondsSince1970
    /// Milliseconds since 1970-01-01 UTC, an integer or a float.
    case millisecondsSince1970
    /// An ISO 8601 string, e.g. `2024-05-01T12:30:00Z`.
    case iso8601
    /// `Date`'s own `Codable` form: seconds since 2001-01-01 UTC.
    case deferredToDate
  }

  /// How `Data` values are decoded.
  public enum DataDecodingStrategy: Sendable {
    /// The bytes of a Lua string. The default.
    case bytes
    /// A Lua string holding Base64.
    case base64
    /// `Data`'s own `Codable` form: a sequence of byte values.
    case deferredToData
  }

  /// How `Date` values are decoded; ``DateDecodingStrategy/secondsSince1970`` by default.
  public var dateDecodingStrategy: DateDecodingStrategy = .secondsSince1970
  /// How `Data` values are decoded; ``DataDecodingStrategy/bytes`` by default.
  public var dataDecodingStrategy: DataDecodingStrategy = .bytes
  /// How many levels below the decoded value a value may be nested (200 by default): a
  /// field of the top table is 1 level down. Deeper values fail with a `conversion` error.
  public var maxDepth = 200
  /// How many values one decode may read, counting every element, field and nested value
  /// (10,000,000 by default). A table that holds one subtable many times decodes each
  /// copy in full, so a small Lua value can stand for a huge Swift one; past this many,
  /// decoding fails with a `conversion` error instead of running for hours.
  public var maxValues = 10_000_000
  /// The count left of ``maxValues`` in the decode under way; one per `decode` call.
  var budget: DecodingBudget?
  /// Values handed to the decoded types' `init(from:)` as `decoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

  /// Creates a decoder with the default strategies.
  public init() {}

  /// Decodes a `T` from `value`, reading tables raw (no metamethods run).
  /// - Throws: ``LuaError`` of kind `conversion` whose message names the coding path
  ///   (`notes[2].title: string expected, got number`) and whose
  ///   ``LuaError/underlying`` is the `DecodingError`; `usage` when the value's state is
  ///   closed or not held by this thread.
  public func decode<T: Decodable>(_ type: T.Type = T.self, from value: LuaValue) throws -> T {
    var options = self
    options.budget = DecodingBudget(left: maxValues)
    return try LuaDecoding.decode(T.self, from: value, at: [], options: options)
  }
}

/// What is left of one decode's ``LuaDecoder/maxValues``.
final class DecodingBudget: @unchecked Sendable {
  // `@unchecked Sendable` is justified: one `decode` call makes it and is its only user,
  // on its own thread (the state's lock held), until it returns.
  var left: Int
  init(left: Int) { self.left = left }
}
