import Lua

/// Something a plugin may ask for in its manifest, which it gets only when the host
/// allows it: a standard library the sandbox leaves out (`io`, `os`, `package`, `debug`),
/// or the name an app gave its own module's capability (`HostModule(…, capability: "tasks")`).
public struct PluginCapability: RawRepresentable, Hashable, Sendable, Comparable,
  ExpressibleByStringLiteral, CustomStringConvertible
{
  /// The name a manifest uses.
  public let rawValue: String

  /// The capability named `rawValue`.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The capability named `value`.
  public init(stringLiteral value: String) { rawValue = value }

  /// The capability to use a standard library.
  public init(_ library: LuaSandbox.Capability) { rawValue = library.rawValue }

  /// The whole `io` library.
  public static let io = PluginCapability(.io)
  /// The whole `os` library.
  public static let os = PluginCapability(.os)
  /// `package` and the standard `require`, which can load C modules.
  public static let package = PluginCapability(.package)
  /// The `debug` library.
  public static let debug = PluginCapability(.debug)

  /// The standard library this grants, if it is one.
  public var library: LuaSandbox.Capability? { LuaSandbox.Capability(rawValue: rawValue) }

  /// The name.
  public var description: String { rawValue }

  /// By name.
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
