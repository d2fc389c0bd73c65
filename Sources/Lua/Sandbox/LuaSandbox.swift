/// A deny-by-default policy for running code you do not trust.
///
/// Opened: base (filtered), `string`, `table`, `math`, `utf8`, `coroutine`, and an `os` that
/// holds only `clock`, `time`, `date` and `difftime`. Not opened: `io`, `package` (a
/// `require` that loads text modules from ``moduleDirectory`` stands in), `debug`.
///
/// The base library is filtered: `load` forces text mode and an explicit environment;
/// `dofile`, `loadfile` and `string.dump` are gone; `collectgarbage` allows only `"count"`;
/// `setmetatable` refuses `__gc` (finalizers run with hooks off and could hang the host);
/// the string metatable is locked (`getmetatable("")` returns `"locked"`); `xpcall` does not
/// run the script's handler for a host stop, which it could otherwise loop in.
/// `string.rep` and `table.concat` refuse results over ``maxStringLength`` bytes,
/// `table.sort` refuses more than ``maxSortLength`` elements, and pattern matching refuses
/// work over ``maxPatternSteps`` (a step-counting dry run goes first): one C call cannot be
/// interrupted by any hook.
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
  /// The instruction budget of each call from the host; nil for none (the default, as a
  /// budget costs on every instruction).
  public var instructionLimit: Int?
  /// The folder `require` loads text modules from; nil: no `require`.
  public var moduleDirectory: String?
  /// Where `print` and `warn` output goes (a line, without its newline); nil: stdout.
  public var output: (@Sendable (String) -> Void)?
  /// The longest string `string.rep` and `table.concat` may build.
  public var maxStringLength = 16 << 20
  /// The most elements `table.sort` may sort.
  public var maxSortLength = 1 << 20
  /// The most steps one pattern-matching call (`string.find`, `match`, `gmatch`, `gsub`)
  /// may take, counted by a dry run before liblua's matcher runs (about 10 ms of work).
  public var maxPatternSteps = 5_000_000

  /// The default policy: nothing granted, 64 MiB, 10 s per call.
  public init() {}

  /// The full standard library with no filtering and no limits, for your own scripts.
  public static let trusted: LuaSandbox? = nil
}
