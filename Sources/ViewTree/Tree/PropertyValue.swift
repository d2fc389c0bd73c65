/// A plain value stored in a view's ``View/properties``.
public enum PropertyValue: Hashable, Sendable {
  /// A string.
  case string(String)
  /// An integer.
  case integer(Int)
  /// A floating-point number.
  case number(Double)
  /// A Boolean.
  case bool(Bool)

  /// The string, if this is a ``string(_:)`` value.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The integer, if this is an ``integer(_:)`` value.
  public var integerValue: Int? {
    if case .integer(let value) = self { return value }
    return nil
  }

  /// The number, if this is a ``number(_:)`` or ``integer(_:)`` value.
  public var numberValue: Double? {
    switch self {
    case .number(let value): return value
    case .integer(let value): return Double(value)
    default: return nil
    }
  }

  /// The Boolean, if this is a ``bool(_:)`` value.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }
}

// MARK: - Literals and description

extension PropertyValue: ExpressibleByStringLiteral {
  /// Creates a ``string(_:)`` value from a literal.
  public init(stringLiteral value: String) { self = .string(value) }
}

extension PropertyValue: ExpressibleByIntegerLiteral {
  /// Creates an ``integer(_:)`` value from a literal.
  public init(integerLiteral value: Int) { self = .integer(value) }
}

extension PropertyValue: ExpressibleByFloatLiteral {
  /// Creates a ``number(_:)`` value from a literal.
  public init(floatLiteral value: Double) { self = .number(value) }
}

extension PropertyValue: ExpressibleByBooleanLiteral {
  /// Creates a ``bool(_:)`` value from a literal.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension PropertyValue: CustomStringConvertible {
  /// The value as plain text, without quotes.
  public var description: String {
    switch self {
    case .string(let value): return value
    case .integer(let value): return String(value)
    case .number(let value): return String(value)
    case .bool(let value): return String(value)
    }
  }
}
