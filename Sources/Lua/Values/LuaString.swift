/// A Lua string: any bytes, including NULs and invalid UTF-8.
///
/// The bytes survive every round trip unchanged. ``string`` views them as Swift text when
/// they are valid UTF-8.
public struct LuaString: Hashable, Sendable {
  /// The raw bytes.
  public var bytes: [UInt8]

  /// Creates a string from raw bytes.
  public init(bytes: some Sequence<UInt8>) { self.bytes = Array(bytes) }

  /// Creates a string from Swift text, encoded as UTF-8.
  public init(_ string: String) { bytes = Array(string.utf8) }

  /// The bytes as Swift text, or nil when they are not valid UTF-8.
  public var string: String? { String(validating: bytes, as: UTF8.self) }
}

extension LuaString: CustomStringConvertible, ExpressibleByStringLiteral {
  /// The text, with invalid UTF-8 replaced by U+FFFD.
  public var description: String { String(decoding: bytes, as: UTF8.self) }

  /// Creates a string from a literal.
  public init(stringLiteral value: String) { self.init(value) }
}
