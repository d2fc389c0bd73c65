#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A Lua value, with Lua's types kept apart.
///
/// Integers and floats are separate cases, as in Lua 5.4. Tables, functions, userdata and
/// threads are references into a state (see ``LuaTable``); their registry slot is released
/// when the last copy is dropped.
public enum LuaValue {
  /// `nil`.
  case `nil`
  /// `true` or `false`.
  case boolean(Bool)
  /// An integer subtype number.
  case integer(Int64)
  /// A float subtype number.
  case number(Double)
  /// A byte string.
  case string(LuaString)
  /// A table.
  case table(LuaTable)
  /// A Lua function or a C/Swift function.
  case function(LuaFunction)
  /// A full userdata, e.g. a Swift object exposed to Lua.
  case userdata(LuaUserdata)
  /// A light userdata: a bare pointer.
  case lightUserdata(UnsafeMutableRawPointer?)
  /// A coroutine.
  case thread(LuaThread)

  /// The Lua type name, as `type()` returns it.
  public var typeName: String {
    switch self {
    case .nil: "nil"
    case .boolean: "boolean"
    case .integer, .number: "number"
    case .string: "string"
    case .table: "table"
    case .function: "function"
    case .userdata, .lightUserdata: "userdata"
    case .thread: "thread"
    }
  }

  /// Whether Lua treats the value as true (everything but `nil` and `false`).
  public var isTruthy: Bool {
    switch self {
    case .nil, .boolean(false): false
    default: true
    }
  }

  /// Whether this is `nil`.
  public var isNil: Bool {
    if case .nil = self { return true }
    return false
  }

  var reference: LuaReference? {
    switch self {
    case .table(let t): t.reference
    case .function(let f): f.reference
    case .userdata(let u): u.reference
    case .thread(let t): t.reference
    default: nil
    }
  }
}

// MARK: - Equality follows Lua's raw equality

extension LuaValue: Hashable {
  /// Raw equality: numbers compare by value (`1 == 1.0`), references by identity.
  public static func == (lhs: LuaValue, rhs: LuaValue) -> Bool {
    switch (lhs, rhs) {
    case (.nil, .nil): true
    case (.boolean(let a), .boolean(let b)): a == b
    case (.integer(let a), .integer(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.integer(let a), .number(let b)), (.number(let b), .integer(let a)):
      Double(exactly: a).map { $0 == b } ?? false
    case (.string(let a), .string(let b)): a == b
    case (.lightUserdata(let a), .lightUserdata(let b)): a == b
    default:
      if let a = lhs.reference, let b = rhs.reference { a.identity == b.identity } else { false }
    }
  }

  /// Hashes consistently with ``==(_:_:)``.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .nil: hasher.combine(0)
    case .boolean(let b): hasher.combine(b)
    case .integer(let i): hasher.combine(Double(i))
    case .number(let d): hasher.combine(d)
    case .string(let s): hasher.combine(s)
    case .lightUserdata(let p): hasher.combine(p)
    default: hasher.combine(reference?.identity)
    }
  }
}

// MARK: - Literals

extension LuaValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral
{
  /// `nil`.
  public init(nilLiteral: ()) { self = .nil }
  /// A boolean.
  public init(booleanLiteral value: Bool) { self = .boolean(value) }
  /// An integer.
  public init(integerLiteral value: Int64) { self = .integer(value) }
  /// A float.
  public init(floatLiteral value: Double) { self = .number(value) }
  /// A string.
  public init(stringLiteral value: String) { self = .string(LuaString(value)) }
}

extension LuaValue: CustomStringConvertible {
  /// A short rendering without calling any metamethod: strings as text, numbers as Lua
  /// prints them, references as `table: 0x…`.
  public var description: String {
    switch self {
    case .nil: "nil"
    case .boolean(let b): b ? "true" : "false"
    case .integer(let i): String(i)
    case .number(let d): LuaValue.format(d)
    case .string(let s): s.description
    case .lightUserdata(let p): "userdata: \(p.map { "\($0)" } ?? "NULL")"
    default: "\(typeName): \(reference?.identity.map { "\($0)" } ?? "?")"
    }
  }

  /// Formats a float as Lua's `%.14g` does, adding `.0` when the result looks like an
  /// integer (Lua's `lua_Number2str`).
  static func format(_ d: Double) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    _ = withVaList([d]) { vsnprintf(&buffer, buffer.count, "%.14g", $0) }
    let text = String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return text.allSatisfy({ $0 == "-" || $0.isNumber }) ? text + ".0" : text
  }
}
