/// A Swift type that converts to and from ``LuaValue``.
///
/// Conversions are strict about types but follow Lua where Lua itself converts: a float
/// with an integral value converts to an integer type, an integer to `Double`.
public protocol LuaConvertible {
  /// Converts a Lua value.
  /// - Throws: ``LuaError`` of kind `conversion` when the value does not fit.
  init(luaValue: LuaValue) throws
  /// The Lua value for `self`; tables are created in `state`.
  /// - Throws: ``LuaError`` of kind `usage` when the state is closed.
  func luaValue(in state: LuaState) throws -> LuaValue

  /// Reads the value at `position` of `arguments` in place. Not API: the fast path of the
  /// typed functions and calls. The default converts `arguments[position]` with
  /// ``init(luaValue:)``; the common scalars read the Lua stack directly (see
  /// LuaConvertible+FastPath.swift). Both behave the same.
  static func _read(_ arguments: LuaArguments, at position: Int) throws -> Self

  /// Pushes `self` on the Lua stack behind `arguments`, which has room for it. Not API:
  /// the fast path of the typed functions and calls. The default pushes ``luaValue(in:)``
  /// made in the call's state; the common scalars push themselves without reading the
  /// state (see LuaConvertible+FastPath.swift).
  func _push(_ arguments: LuaArguments) throws

  /// The Lua value for `self` when making it needs no state (a scalar), else nil. Not API:
  /// a typed async function's result converts with it after the wait, without the state's
  /// lock. The default is nil (``luaValue(in:)``, under the lock).
  var _plainLuaValue: LuaValue? { get }
}

extension LuaError {
  static func mismatch(_ value: LuaValue, expected: String) -> LuaError {
    LuaError(conversion: "\(expected) expected, got \(value.typeName)")
  }
}

extension LuaValue: LuaConvertible {
  /// Returns the value itself.
  public init(luaValue: LuaValue) { self = luaValue }
  /// Returns the value itself.
  public func luaValue(in state: LuaState) -> LuaValue { self }
}

extension Bool: LuaConvertible {
  /// Converts a Lua boolean (only `true` or `false`; use ``LuaValue/isTruthy`` for Lua's
  /// truthiness).
  public init(luaValue: LuaValue) throws {
    guard case .boolean(let b) = luaValue else {
      throw LuaError.mismatch(luaValue, expected: "boolean")
    }
    self = b
  }
  /// `true` or `false`.
  public func luaValue(in state: LuaState) -> LuaValue { .boolean(self) }
}

extension Double: LuaConvertible {}  // conversions in LuaConvertible+Scalars.swift

extension Float: LuaConvertible {
  /// Converts a Lua number, rounding to `Float`.
  public init(luaValue: LuaValue) throws { self = Float(try Double(luaValue: luaValue)) }
  /// A float.
  public func luaValue(in state: LuaState) -> LuaValue { .number(Double(self)) }
}

/// Integer conversions share one implementation: exact values only, like `math.tointeger`.
extension LuaConvertible where Self: FixedWidthInteger {
  /// Converts a Lua integer, or a float with an exact integer value, that fits `Self`.
  public init(luaValue: LuaValue) throws {
    let wide: Int64
    switch luaValue {
    case .integer(let i): wide = i
    case .number(let d):
      guard let exact = Int64(exactly: d) else {
        throw LuaError(conversion: "number has no integer representation")
      }
      wide = exact
    default: throw LuaError.mismatch(luaValue, expected: "integer")
    }
    guard let value = Self(exactly: wide) else {
      throw LuaError(conversion: "integer \(wide) does not fit \(Self.self)")
    }
    self = value
  }

  /// An integer; `UInt64` values above `Int64.max` wrap, as Lua's unsigned arithmetic does.
  public func luaValue(in state: LuaState) -> LuaValue { .integer(Int64(truncatingIfNeeded: self)) }
}

extension Int: LuaConvertible {}  // Int and Int64: LuaConvertible+Scalars.swift
extension Int8: LuaConvertible {}
extension Int16: LuaConvertible {}
extension Int32: LuaConvertible {}
extension Int64: LuaConvertible {}
extension UInt: LuaConvertible {}
extension UInt8: LuaConvertible {}
extension UInt16: LuaConvertible {}
extension UInt32: LuaConvertible {}
extension UInt64: LuaConvertible {}

extension String: LuaConvertible {
  /// Converts a Lua string holding valid UTF-8, or a number (as Lua formats it).
  public init(luaValue: LuaValue) throws {
    switch luaValue {
    case .string(let s):
      guard let text = s.string else { throw LuaError(conversion: "string is not valid UTF-8") }
      self = text
    case .integer, .number: self = luaValue.description
    default: throw LuaError.mismatch(luaValue, expected: "string")
    }
  }
  /// A Lua string with the UTF-8 bytes.
  public func luaValue(in state: LuaState) -> LuaValue { .string(LuaString(self)) }
}

extension LuaString: LuaConvertible {
  /// Converts a Lua string (any bytes).
  public init(luaValue: LuaValue) throws {
    guard case .string(let s) = luaValue else {
      throw LuaError.mismatch(luaValue, expected: "string")
    }
    self = s
  }
  /// The string.
  public func luaValue(in state: LuaState) -> LuaValue { .string(self) }
}

extension Optional: LuaConvertible where Wrapped: LuaConvertible {
  /// `nil` becomes `nil`; anything else converts to `Wrapped`.
  public init(luaValue: LuaValue) throws {
    self = luaValue.isNil ? nil : try Wrapped(luaValue: luaValue)
  }
  /// `nil`, or the wrapped value.
  public func luaValue(in state: LuaState) throws -> LuaValue {
    try self?.luaValue(in: state) ?? .nil
  }
}

extension LuaTable: LuaConvertible {
  /// Converts a table.
  public init(luaValue: LuaValue) throws {
    guard case .table(let t) = luaValue else {
      throw LuaError.mismatch(luaValue, expected: "table")
    }
    self = t
  }
  /// The table.
  public func luaValue(in state: LuaState) -> LuaValue { .table(self) }
}

extension LuaFunction: LuaConvertible {
  /// Converts a function.
  public init(luaValue: LuaValue) throws {
    guard case .function(let f) = luaValue else {
      throw LuaError.mismatch(luaValue, expected: "function")
    }
    self = f
  }
  /// The function.
  public func luaValue(in state: LuaState) -> LuaValue { .function(self) }
}

extension LuaConvertible {
  /// Converts a value assigned to the property `name` of a `type` (a userdata type's or a
  /// component's name), as the typed properties do.
  /// - Throws: a `runtime` ``LuaError`` "bad value for property 'name' of type (…)" when the
  ///   value does not convert: a message for the script, which raised it by assigning.
  @inlinable
  public init(luaValue value: LuaValue, property name: String, of type: String) throws {
    do {
      try self.init(luaValue: value)
    } catch let error as LuaError where error.kind == .conversion {
      throw LuaError.badProperty(name, of: type, error.message)
    }
  }
}

extension LuaError {
  /// The error of a property assignment whose value does not convert. Not API.
  @usableFromInline
  static func badProperty(_ name: String, of type: String, _ reason: String) -> LuaError {
    LuaError(kind: .runtime, message: "bad value for property '\(name)' of \(type) (\(reason))")
  }
}
