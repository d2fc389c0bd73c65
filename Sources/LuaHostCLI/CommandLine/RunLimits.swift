import Lua
import LuaHost
import ViewTree

/// The limits and capabilities a run asks for (`--allow`, `--memory`, `--timeout`,
/// `--instructions`), and the one place where a run's sandboxes are built from them: the
/// script's, each plugin's and each test's. What a flag did not give stays the default of
/// the sandbox being built.
package struct RunLimits: Equatable, Sendable {
  /// What `--memory` said.
  package enum Memory: Equatable, Sendable {
    /// Not given: the default of the sandbox being built.
    case standard
    /// `--memory none`: no limit at all.
    case unlimited
    /// `--memory SIZE`.
    case bytes(Int)
  }

  /// `--allow io,os,package,debug`: libraries granted to the sandbox and to plugins.
  package var capabilities: Set<LuaSandbox.Capability> = []
  /// `--memory`.
  package var memory = Memory.standard
  /// `--timeout DURATION`: the deadline of each call into Lua.
  package var timeout: Duration?
  /// `--instructions N`: the instruction budget of each call.
  package var instructionLimit: Int?
  /// The end of a run that `--timeout` bounds as a whole (a script with its timers and its
  /// plugins): no call of any of its states runs past it. Set by the runner, not a flag.
  package var endOfRun: ContinuousClock.Instant?

  /// No flag given.
  package init() {}

  /// The memory limit of a sandboxed script when `--memory` is not given.
  package static let scriptMemoryLimit = 256 << 20

  /// Whether `option` is one of the flags this type parses.
  package static func isLimitFlag(_ option: String) -> Bool {
    ["--allow", "--memory", "--timeout", "--instructions"].contains(option)
  }

  /// Parses the value of one limit flag (see ``isLimitFlag(_:)``).
  /// - Throws: ``UsageError`` naming the flag and the bad value.
  package mutating func parse(_ option: String, _ value: String) throws {
    switch option {
    case "--allow":
      // Every name between commas is a capability: an empty one (`--allow ''`, `io,,os`)
      // is a slip, not a grant of nothing.
      for name in value.split(separator: ",", omittingEmptySubsequences: false) {
        guard let capability = LuaSandbox.Capability(rawValue: String(name)) else {
          throw UsageError("unknown capability '\(name)' (known: io, os, package, debug)")
        }
        capabilities.insert(capability)
      }
    case "--memory":
      if value == "none" {
        memory = .unlimited
      } else if let bytes = Self.parseSize(value) {
        memory = .bytes(bytes)
      } else {
        throw UsageError("bad size '\(value)' for --memory (e.g. 64M, or none)")
      }
    case "--timeout":
      guard let duration = Self.parseDuration(value) else {
        throw UsageError("bad duration '\(value)' for --timeout (e.g. 500ms, 2s)")
      }
      timeout = duration
    default:
      guard let count = Int(value), count > 0 else {
        throw UsageError("bad count '\(value)' for --instructions")
      }
      instructionLimit = count
    }
  }

  /// The memory limit over a default of `standard`: what `--memory` gave, if it gave one.
  package func memoryLimit(standard: Int?) -> Int? {
    switch memory {
    case .standard: standard
    case .unlimited: nil
    case .bytes(let bytes): bytes
    }
  }

  /// `base` with the given limits in place of its own; the capabilities are added when
  /// `granting` (a plugin's come from its manifest, through the host's consent instead).
  package func sandbox(over base: LuaSandbox = LuaSandbox(), granting: Bool) -> LuaSandbox {
    var sandbox = base
    if granting { sandbox.capabilities.formUnion(capabilities) }
    sandbox.memoryLimit = memoryLimit(standard: base.memoryLimit)
    if let timeout { sandbox.timeout = timeout }
    if let instructionLimit { sandbox.instructionLimit = instructionLimit }
    if let endOfRun { sandbox.endOfRun = endOfRun }
    return sandbox
  }

  /// The sandbox of a script, `-e` code or the REPL: the granted libraries, a memory limit
  /// of ``scriptMemoryLimit`` unless given, no deadline unless given (a script may run as
  /// long as `lua` would), and `require` reading from `moduleDirectory`.
  package func scriptSandbox(moduleDirectory: String) -> LuaSandbox {
    var base = LuaSandbox()
    base.memoryLimit = Self.scriptMemoryLimit
    base.timeout = nil
    base.moduleDirectory = moduleDirectory
    return sandbox(over: base, granting: true)
  }

  /// Applies the given limits to a trusted state, which has none of its own.
  package func apply(to lua: LuaState) {
    if case .bytes(let bytes) = memory { lua.memoryLimit = bytes }
    if let timeout { lua.timeout = timeout }
    if let instructionLimit { lua.instructionLimit = instructionLimit }
    if let endOfRun { lua.endOfRun = endOfRun }
  }

  /// A plugin host whose panels go under `container`: it consents to the granted
  /// capabilities, and each plugin runs under the given limits over the plugin defaults
  /// (a 10 s deadline per call, 64 MiB).
  package func pluginHost(container: View, output: @escaping @Sendable (String) -> Void)
    -> PluginHost
  {
    PluginHost(
      container: container, allowed: Set(capabilities.map(PluginCapability.init)),
      limits: sandbox(granting: false), output: output)
  }

  /// `1024`, `64K`, `64M`, `1G` (binary multiples).
  static func parseSize(_ text: String) -> Int? {
    let multipliers: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
    var digits = Substring(text.uppercased())
    var multiplier = 1
    if digits.hasSuffix("B") { digits = digits.dropLast() }
    if let last = digits.last, let m = multipliers[last] {
      multiplier = m
      digits = digits.dropLast()
    }
    guard let number = Int(digits), number > 0 else { return nil }
    let (bytes, overflow) = number.multipliedReportingOverflow(by: multiplier)
    return overflow ? nil : bytes
  }

  /// `250ms`, `2s`, `1.5s`, `1m`; a bare number is seconds. At most a year
  /// (``Duration/limit(seconds:)``): anything longer is refused, not trapped on.
  static func parseDuration(_ text: String) -> Duration? {
    // Decimal digits with at most one point: `Double` also reads `0x10`, `1e3` and `inf`.
    func decimal(_ digits: Substring) -> Double? {
      guard digits.contains(where: \.isASCIIDigit), digits.filter({ $0 == "." }).count <= 1,
        digits.allSatisfy({ $0.isASCIIDigit || $0 == "." })
      else { return nil }
      return Double(digits)
    }
    let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60)]
    for (suffix, scale) in units where text.hasSuffix(suffix) {
      guard let number = decimal(text.dropLast(suffix.count)) else { return nil }
      return Duration.limit(seconds: number * scale)
    }
    return decimal(Substring(text)).flatMap { Duration.limit(seconds: $0) }
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
