/// A failure reported by Lua or by the binding, as a Swift error.
///
/// Every Lua failure arrives as a `LuaError`: the state is never left unusable and the
/// process never aborts. The original Lua error value is kept in ``value`` (a table stays
/// a table), and ``traceback`` holds the frames that were on the stack when it was raised.
///
/// A Swift error thrown by a Swift closure that Lua called travels through Lua as a
/// userdata and comes back out as a `LuaError` of kind ``Kind/swift`` whose ``underlying``
/// is the original error, the same instance with the same payload.
///
/// `value` may refer into the Lua state that raised the error; read it on that state's
/// thread. Dropping it is safe on any thread.
public struct LuaError: Error, @unchecked Sendable {
  /// What kind of failure this is, and the Lua status it maps from.
  public enum Kind: Hashable, Sendable {
    /// A chunk did not compile (`LUA_ERRSYNTAX`). `incomplete` is true when the input
    /// merely ended too early (the message ends in `<eof>`), which a REPL uses to ask for
    /// another line.
    case syntax(incomplete: Bool)
    /// Lua code raised an error (`LUA_ERRRUN`).
    case runtime
    /// An allocation failed, or the state's memory limit was reached (`LUA_ERRMEM`).
    case memory
    /// A file could not be opened or read (`LUA_ERRFILE`).
    case file
    /// The message handler itself failed (`LUA_ERRERR`), e.g. during a stack overflow.
    case messageHandler
    /// A Swift closure called by Lua threw (`LUA_ERRRUN` carrying a Swift error);
    /// see ``LuaError/underlying``.
    case swift
    /// A Lua value could not be converted to the requested Swift type (no Lua status).
    case conversion
    /// The API was misused: the state is closed, a value belongs to another state, or the
    /// Lua stack could not grow (no Lua status).
    case usage
    /// The host's instruction budget ran out (reserved for host limits).
    case instructionLimit
    /// The host's wall-clock deadline passed (reserved for host limits).
    case timeout
    /// The host interrupted the running code, e.g. on Ctrl-C (reserved for host limits).
    case interrupted
  }

  /// The kind of failure.
  public var kind: Kind
  /// A readable message: the error string, `__tostring` of the value, or the Swift error's
  /// description.
  public var message: String
  /// The original Lua error value (`nil` when there was none, e.g. for conversion errors).
  public var value: LuaValue
  /// The frames on the Lua stack when the error was raised; empty when none were recorded.
  public var traceback: LuaTraceback
  /// The Swift error that crossed Lua, for ``Kind/swift``. For a `conversion` error from
  /// ``LuaEncoder`` or ``LuaDecoder``, the `EncodingError` or `DecodingError` with the full
  /// coding path, or the error a type's own `encode(to:)` or `init(from:)` threw.
  public var underlying: (any Error)?
  /// The account of the state the error came from, if it has one: what the host keeps of
  /// the error on the script's behalf (an alert) is charged there.
  package var memoryAccount: LuaMemoryAccount?

  /// Creates an error.
  public init(
    kind: Kind, message: String, value: LuaValue = .nil,
    traceback: LuaTraceback = LuaTraceback(), underlying: (any Error)? = nil
  ) {
    self.kind = kind
    self.message = message
    self.value = value
    self.traceback = traceback
    self.underlying = underlying
  }

  init(usage message: String) { self.init(kind: .usage, message: message) }
  init(conversion message: String) { self.init(kind: .conversion, message: message) }

  /// The underlying Swift error as `E`, if this error carries one of that type.
  public func underlying<E: Error>(as type: E.Type) -> E? { underlying as? E }

  /// Where the error was raised: the chunk and line of a syntax error, or the innermost
  /// Lua frame with a line for a runtime error.
  public var location: LuaSourceLocation? {
    if case .syntax = kind { return LuaSourceLocation(parsingMessage: message) }
    return traceback.frames.first { $0.line > 0 }.map {
      LuaSourceLocation(source: $0.source, line: $0.line)
    } ?? LuaSourceLocation(parsingMessage: message)
  }
}

extension LuaError: CustomStringConvertible {
  /// The message, as Lua would print it.
  public var description: String { message }
}

/// A place in Lua source: the short chunk name (as Lua prints it) and a line.
public struct LuaSourceLocation: Hashable, Sendable, CustomStringConvertible {
  /// The chunk's short name, e.g. `main.lua` or `[string "x = 1"]`.
  public var source: String
  /// The 1-based line.
  public var line: Int

  /// Creates a location.
  public init(source: String, line: Int) {
    self.source = source
    self.line = line
  }

  /// Reads the `source:line:` prefix Lua puts on messages; nil when there is none.
  public init?(parsingMessage message: String) {
    // A [string "..."] name may itself contain ':', so skip past its closing quote first.
    var searchStart = message.startIndex
    if message.hasPrefix("[string \"") {
      let scalars = Array(message.utf8)
      let marker = Array("\"]:".utf8)
      if let offset = (0...max(0, scalars.count - marker.count)).first(where: {
        scalars[$0..<min($0 + marker.count, scalars.count)].elementsEqual(marker)
      }) {
        searchStart = message.utf8.index(message.startIndex, offsetBy: offset)
      }
    }
    var index = searchStart
    while let colon = message[index...].firstIndex(of: ":") {
      let digits = message[message.index(after: colon)...].prefix { $0.isASCII && $0.isNumber }
      let afterDigits = digits.endIndex
      if !digits.isEmpty, afterDigits < message.endIndex, message[afterDigits] == ":",
        let line = Int(digits)
      {
        self.init(source: String(message[..<colon]), line: line)
        return
      }
      index = message.index(after: colon)
    }
    return nil
  }

  /// `source:line`.
  public var description: String { "\(source):\(line)" }
}
