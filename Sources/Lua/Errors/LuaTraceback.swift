import CLuaShim

/// The Lua call frames recorded when an error was raised.
///
/// Recording is cheap (the message handler copies a few fields per frame); the frames are
/// decoded and the text is formatted only when someone reads them. Like `luaL_traceback`,
/// a deep stack keeps its first 10 and last 11 levels.
public struct LuaTraceback: Sendable, CustomStringConvertible {
  private let storage: TraceStorage?

  /// An empty traceback.
  public init() { storage = nil }

  init(taking trace: UnsafeMutablePointer<lh_trace>?) {
    storage = trace.map(TraceStorage.init)
  }

  /// Whether any frame was recorded.
  public var isEmpty: Bool { (storage?.trace.pointee.count ?? 0) == 0 }

  /// The message `__tostring` gave for a table error value, made by the
  /// message handler while the stack still showed where the error happened.
  var handlerMessage: String? {
    guard let trace = storage?.trace, let message = trace.pointee.message else { return nil }
    return LuaString(
      bytes: UnsafeRawBufferPointer(start: message, count: trace.pointee.message_len)
    ).description
  }

  /// Levels that were on the stack, including those left out of ``frames``.
  public var depth: Int { Int(storage?.trace.pointee.total ?? 0) }

  /// The recorded frames, innermost first.
  public var frames: [LuaFrame] {
    guard let trace = storage?.trace else { return [] }
    let count = Int(trace.pointee.count)
    return withUnsafePointer(to: &trace.pointee.frames) { tuple in
      tuple.withMemoryRebound(to: lh_frame.self, capacity: count) { base in
        (0..<count).map { LuaFrame(base[$0]) }
      }
    }
  }

  /// The traceback in the format of Lua's `debug.traceback`.
  public var description: String {
    var text = "stack traceback:"
    var previousLevel = 0
    for frame in frames {
      if frame.level > previousLevel + 1 {
        text += "\n\t...\t(skipping \(frame.level - previousLevel - 1) levels)"
      }
      previousLevel = frame.level
      text += "\n\t" + frame.description
      // As luaL_traceback marks the frames that a tail call replaced.
      if frame.isTailCall { text += "\n\t(...tail calls...)" }
    }
    return text
  }
}

/// One frame of a ``LuaTraceback``.
public struct LuaFrame: Hashable, Sendable, CustomStringConvertible {
  /// What ran in the frame.
  public enum Kind: String, Hashable, Sendable {
    /// A Lua function.
    case lua = "Lua"
    /// A C function (or a Swift closure, which Lua sees as C).
    case c = "C"
    /// The main chunk.
    case main = "main"
  }

  /// The stack level (1 is the function that raised).
  public var level: Int
  /// What ran.
  public var kind: Kind
  /// The chunk's short name, `[C]` for C functions.
  public var source: String
  /// The current line, or 0 when unknown.
  public var line: Int
  /// The function's name when Lua could find one.
  public var name: String?
  /// How the name was found: `global`, `local`, `method`, `field`, `upvalue`, ….
  public var nameKind: String?
  /// The line where the function was defined.
  public var lineDefined: Int
  /// Whether the function was entered by a tail call, so that the frames of its callers
  /// down to the next recorded one are gone (`debug.traceback` prints
  /// `(...tail calls...)` below it).
  public var isTailCall: Bool

  init(_ raw: lh_frame) {
    var raw = raw
    level = Int(raw.level)
    line = Int(raw.currentline)
    lineDefined = Int(raw.linedefined)
    isTailCall = raw.istailcall != 0
    kind = Kind(rawValue: Self.string(&raw.what)) ?? .c
    source = Self.string(&raw.source)
    let name = Self.string(&raw.name)
    let nameKind = Self.string(&raw.namewhat)
    self.name = name.isEmpty ? nil : name
    self.nameKind = nameKind.isEmpty ? nil : nameKind
  }

  private static func string<T>(_ tuple: inout T) -> String {
    withUnsafeBytes(of: &tuple) { bytes in
      let length = bytes.firstIndex(of: 0) ?? bytes.count
      return String(decoding: bytes[..<length], as: UTF8.self)
    }
  }

  /// The frame as `debug.traceback` prints it, e.g. `main.lua:3: in local 'f'`.
  public var description: String {
    let place = line > 0 ? "\(source):\(line):" : "\(source):"
    let what: String
    if let name, let nameKind {
      what = nameKind == "global" ? "function '\(name)'" : "\(nameKind) '\(name)'"
    } else if kind == .main {
      what = "main chunk"
    } else if kind == .lua {
      what = "function <\(source):\(lineDefined)>"
    } else {
      what = "?"
    }
    return "\(place) in \(what)"
  }
}

/// Owns a trace recorded by the C message handler. Immutable after creation, hence Sendable.
private final class TraceStorage: @unchecked Sendable {
  let trace: UnsafeMutablePointer<lh_trace>
  init(_ trace: UnsafeMutablePointer<lh_trace>) { self.trace = trace }
  deinit { lh_trace_free(trace) }
}
