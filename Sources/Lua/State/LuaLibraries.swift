import CLuaShim

/// The standard libraries a ``LuaState`` opens.
public struct LuaLibraries: OptionSet, Sendable, Hashable {
  /// The raw bit mask.
  public let rawValue: UInt32
  /// Creates a set from a bit mask.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// The base library (`print`, `pcall`, `load`, …).
  public static let base = LuaLibraries(rawValue: UInt32(LH_LIB_BASE))
  /// `package` and `require`, which can load C modules.
  public static let package = LuaLibraries(rawValue: UInt32(LH_LIB_PACKAGE))
  /// `coroutine`.
  public static let coroutine = LuaLibraries(rawValue: UInt32(LH_LIB_COROUTINE))
  /// `table`.
  public static let table = LuaLibraries(rawValue: UInt32(LH_LIB_TABLE))
  /// `io`: files and processes.
  public static let io = LuaLibraries(rawValue: UInt32(LH_LIB_IO))
  /// `os`: clock, environment, files, `os.exit`.
  public static let os = LuaLibraries(rawValue: UInt32(LH_LIB_OS))
  /// `string`.
  public static let string = LuaLibraries(rawValue: UInt32(LH_LIB_STRING))
  /// `math`.
  public static let math = LuaLibraries(rawValue: UInt32(LH_LIB_MATH))
  /// `utf8`.
  public static let utf8 = LuaLibraries(rawValue: UInt32(LH_LIB_UTF8))
  /// `debug`, which can break every guarantee the host makes.
  public static let debug = LuaLibraries(rawValue: UInt32(LH_LIB_DEBUG))

  /// No library at all.
  public static let none: LuaLibraries = []
  /// The libraries that cannot reach outside the state: base, coroutine, table, string,
  /// math and utf8.
  public static let safe: LuaLibraries = [.base, .coroutine, .table, .string, .math, .utf8]
  /// Every standard library, as the `lua` interpreter opens them.
  public static let all: LuaLibraries = [.safe, .package, .io, .os, .debug]
}

/// Which chunk formats ``LuaState/load(bytes:name:mode:)`` accepts.
public enum LuaLoadMode: String, Sendable {
  /// Source text only (the default): precompiled bytecode can crash the VM.
  case text = "t"
  /// Precompiled bytecode only. Load only bytecode you produced yourself.
  case binary = "b"
  /// Either.
  case any = "bt"
}
