/// Coding paths as error messages show them, and the errors of ``LuaEncoder`` and
/// ``LuaDecoder``.
///
/// Every failure is a ``LuaError`` of kind `conversion` whose message is
/// `<path>: <problem>`, e.g. `notes[2].title: string expected, got number`. The path reads
/// as Lua code would reach the value: `.name` for a field, `[2]` for an array element (Lua's
/// 1-based position), `[7]` for an integer key, `["odd key"]` for a key that is not a Lua
/// name. A value at the root has no path and the message is the problem alone. The
/// message's ``LuaError/underlying`` is the matching `DecodingError` or `EncodingError`,
/// whose context holds the full `codingPath` (Swift's 0-based positions).
enum LuaCodingPath {
  /// A path longer than this is shown as its first and last few components.
  static let shownComponents = 8

  /// `notes[2].title`; empty for the root.
  static func describe(_ path: [any CodingKey]) -> String {
    if path.count > shownComponents {
      let half = shownComponents / 2
      let head = describe(Array(path.prefix(half)))
      let tail = path.suffix(half).map(component).joined()
      return "\(head)…(\(path.count - 2 * half) more)…\(tail)"
    }
    var text = ""
    for key in path {
      let part = component(key)
      text += text.isEmpty && part.hasPrefix(".") ? String(part.dropFirst()) : part
    }
    return text
  }

  private static func component(_ key: any CodingKey) -> String {
    if let index = key as? LuaIndexKey { return "[\(index.index + 1)]" }
    if let integer = LuaCodingPath.integerKey(key) { return "[\(integer)]" }
    let name = key.stringValue
    return name.isLuaName ? ".\(name)" : "[\"\(name)\"]"
  }

  /// The Lua integer a key stands for: a key whose `intValue` is set and whose
  /// `stringValue` is that number written out (`[Int: V]`'s keys). Other keys, including
  /// `CodingKeys` enums with `Int` raw values, are strings (their case names).
  static func integerKey(_ key: some CodingKey) -> Int64? {
    guard let value = key.intValue, key.stringValue == String(value) else { return nil }
    return Int64(value)
  }

  /// The Lua key for a coding key: an integer (see ``integerKey(_:)``) or a string.
  static func luaKey(_ key: some CodingKey) -> LuaValue {
    if let integer = integerKey(key) { return .integer(integer) }
    return .string(LuaString(key.stringValue))
  }

  /// `<path>: <problem>`, or the problem alone at the root.
  static func message(_ problem: String, at path: [any CodingKey]) -> String {
    path.isEmpty ? problem : "\(describe(path)): \(problem)"
  }
}

/// The key of an array element: Swift's 0-based position (paths show Lua's `[index + 1]`).
struct LuaIndexKey: CodingKey {
  let index: Int
  init(_ index: Int) { self.index = index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { index = intValue }
  var stringValue: String { "Index \(index)" }
  var intValue: Int? { index }
}

/// The key `super`, for `superEncoder()` and `superDecoder()`.
struct LuaSuperKey: CodingKey {
  init() {}
  init?(stringValue: String) { guard stringValue == "super" else { return nil } }
  init?(intValue: Int) { nil }
  var stringValue: String { "super" }
  var intValue: Int? { nil }
}

// MARK: - Errors

extension LuaError {
  /// A conversion error at `path` that carries `underlying` (a coding error).
  static func coding(_ problem: String, at path: [any CodingKey], underlying: any Error)
    -> LuaError
  {
    LuaError(
      kind: .conversion, message: LuaCodingPath.message(problem, at: path),
      underlying: underlying)
  }

  /// A decoding failure: `typeMismatch`, or `valueNotFound` when the value is `nil`.
  static func decoding(
    _ problem: String, at path: [any CodingKey], type: Any.Type, value: LuaValue
  ) -> LuaError {
    let context = DecodingError.Context(codingPath: path, debugDescription: problem)
    let error: DecodingError =
      value.isNil ? .valueNotFound(type, context) : .typeMismatch(type, context)
    return coding(problem, at: path, underlying: error)
  }

  /// `<expected> expected, got <Lua type>`, as a decoding failure.
  static func decodingMismatch(
    _ value: LuaValue, expected: String, at path: [any CodingKey], type: Any.Type
  ) -> LuaError {
    decoding("\(expected) expected, got \(value.typeName)", at: path, type: type, value: value)
  }

  /// A value that has no Lua form, as an `EncodingError.invalidValue`.
  static func encoding(_ problem: String, at path: [any CodingKey], value: Any) -> LuaError {
    let context = EncodingError.Context(codingPath: path, debugDescription: problem)
    return coding(problem, at: path, underlying: EncodingError.invalidValue(value, context))
  }

  /// The error to report for `error`, thrown while coding the value at `path`: a
  /// ``LuaError`` as it is (memory and usage errors keep their kind); a `DecodingError`
  /// or `EncodingError` (from a type's own `init(from:)` or `encode(to:)`) with its own
  /// path and description; any other error wrapped, with the path where it was thrown.
  static func coding(_ error: any Error, at path: [any CodingKey]) -> LuaError {
    switch error {
    case let error as LuaError: return error
    case let error as DecodingError:
      let context: DecodingError.Context
      switch error {
      case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): context = c
      case .keyNotFound(let key, let c):
        let full = c.codingPath + [key]
        return coding(
          problemText(c.debugDescription, or: "value expected, got nil"), at: full,
          underlying: error)
      @unknown default: return coding("\(error)", at: path, underlying: error)
      }
      return coding(
        problemText(context.debugDescription, or: "invalid value"), at: context.codingPath,
        underlying: error)
    case let error as EncodingError:
      switch error {
      case .invalidValue(_, let context):
        return coding(
          problemText(context.debugDescription, or: "invalid value"), at: context.codingPath,
          underlying: error)
      @unknown default: return coding("\(error)", at: path, underlying: error)
      }
    default: return coding("\(error)", at: path, underlying: error)
    }
  }

  private static func problemText(_ description: String, or fallback: String) -> String {
    description.isEmpty ? fallback : description
  }
}
