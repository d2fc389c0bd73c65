/// A deny-by-default policy for running code you do not trust.
///
/// Opened: base (filtered), `string`, `table`, `math`, `utf8`, `coroutine`, and an `os` that
/// holds only `clock`, `time`, `date` and `difftime`. Not opened: `io`, `debug`, and the
/// stock `package`: a `package` table with `loaded`, `preload`, `config` and `path`, and a
/// `require` that reads text modules only from ``moduleDirectory``, stand in.
///
/// Filtered: `load` is text only; `dofile`, `loadfile` and `string.dump` are gone;
/// a script's `__gc` runs later, as a protected call under the script's limits, never
/// from inside the collector (where it would run with hooks off and could hang the host);
/// the string metatable is locked (`getmetatable("")` returns `"locked"`); `xpcall` does
/// not run the script's handler for a host stop, which it could otherwise loop in.
///
/// Every library function whose one C call a script could make run long (`string.rep`,
/// the pattern functions, `table.concat`/`insert`/`remove`/`move`/`sort`, `load`'s parser)
/// is replaced by a version that behaves the same and checks for stops as it goes, so the
/// deadline, an interrupt and the instruction budget stop it too (see `lh_lib.c`).
public struct LuaSandbox: Sendable {
  /// A library the host may grant on top of the defaults.
  public enum Capability: String, Sendable, CaseIterable, Hashable {
    /// The whole `io` library.
    case io
    /// The whole `os` library (`execute`, `remove`, `exit`, `getenv`…).
    case os
    /// `package` and the standard `require`, which can load C modules.
    case package
    /// The `debug` library, which defeats every other rule.
    case debug
  }

  /// Libraries granted on top of the defaults.
  public var capabilities: Set<Capability> = []
  /// The memory limit in bytes; nil for none.
  public var memoryLimit: Int? = 64 << 20
  /// The wall-clock limit of each call from the host; nil for none.
  public var timeout: Duration? = .seconds(10)
  /// The instant past which no call from the host runs (``LuaState/endOfRun``); nil for
  /// none, the default. A host that bounds a whole run (a script with its timers, a set of
  /// plugins) sets it, and every state made from this sandbox ends there.
  public var endOfRun: ContinuousClock.Instant?
  /// The instruction budget of each call from the host; nil for none (the default, as a
  /// budget costs on every instruction).
  public var instructionLimit: Int?
  /// The folder `require` loads text modules from; nil: none, so `require` finds only what
  /// `package.loaded` and `package.preload` hold (the opened libraries, a host's modules).
  public var moduleDirectory: String?
  /// Where `print` output goes (one line, without its newline, bytes as printed); nil:
  /// stdout. Warnings go to ``warningOutput``.
  public var output: (@Sendable (LuaString) -> Void)?
  /// Where warnings (`warn`, once turned on, and errors in finalizers) go, one whole line at
  /// a time (`Lua warning: …`, at most 4 KiB); nil: stderr, as in `lua`. A host that
  /// labels a plugin's `print` lines sets this too, so warnings carry the label.
  public var warningOutput: (@Sendable (LuaString) -> Void)?
  /// The largest module file `require` reads.
  public var maxModuleSize = 16 << 20

  /// The default policy: nothing granted, 64 MiB, 10 s per call.
  public init() {}

  /// The full standard library with no filtering and no limits, for your own scripts.
  public static let trusted: LuaSandbox? = nil
}
