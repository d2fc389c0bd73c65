import Lua
import ViewTree

/// What the app decides for one plugin: how its panel's boundary treats its errors
/// (Try again, Reset, reset keys, a filter), its limits, and the capabilities it may be
/// granted. A plugin's manifest asks; the policy decides.
///
/// Give one to ``PluginHost`` for every plugin (`policy:` there, a closure of the
/// manifest), or to one ``PluginHost/load(path:at:policy:)``. A plugin keeps its policy
/// across ``PluginHost/reload(_:)`` and a Reset.
///
/// ```swift
/// let host = PluginHost(
///   container: plugins,
///   policy: { manifest in
///     var policy = PluginPolicy(offersRetry: true, offersReset: true)
///     policy.resetKeys = ["document"]  // a new document restarts a failed plugin
///     if manifest.name == "sync" { policy.allowed = ["network"] }
///     return policy
///   })
/// ```
///
/// The closure runs on the thread that loads the plugin, before its sandbox is made.
///
/// ```swift
/// // One plugin with a policy of its own:
/// try host.load(path: "plugins/clock.lua", policy: PluginPolicy(offersRetry: true))
/// ```
///
/// The panel is always isolated (nothing a plugin raises reaches the host's part of the
/// tree) and owned by its plugin (the error log's attribution); no policy changes that.
public struct PluginPolicy {
  /// The panel's alert title; nil for "Error in plugin NAME".
  public var title: String?
  /// The label of the alert's dismiss button.
  public var dismissLabel: String
  /// Whether the panel's alerts offer "Try again" (``retryLabel``), which runs the failed
  /// work again: the tap, event or timer that failed.
  public var offersRetry: Bool
  /// The label of the retry button.
  public var retryLabel: String
  /// Whether the panel's alerts offer "Reset" (``resetLabel``), which restarts the plugin
  /// from its files in a fresh sandbox, in the same place, under the same policy (what
  /// ``PluginHost/reload(_:)`` does). The restart runs in a task once the reset returns;
  /// ``PluginHost/idle()`` waits for it. Only the host restarts a plugin: its own code can
  /// neither press its panel's Reset nor restart it through a reset key, and a restart
  /// that fails is routed from the host's container as
  /// ``PluginError/cannotRestart(plugin:reason:)``.
  public var offersReset: Bool
  /// The label of the reset button.
  public var resetLabel: String
  /// Names of environment values (`EnvironmentValues[named:]`) set at the panel or above
  /// it: changing one while the panel shows an alert resets the panel, as
  /// react-error-boundary's `resetKeys` do (with ``offersReset``, the plugin restarts,
  /// unless its own code changed the value; without it, its alerts are dismissed).
  public var resetKeys: Set<String>
  /// Decides per error what the panel does (handle, decline, transform, escalate); an
  /// escalation stays in the panel, which is isolated. Nil handles every error.
  public var onError: BoundaryFilter?
  /// The plugin's memory, time and instruction limits; nil for the host's ``PluginHost/limits``.
  /// (Its capabilities, module folder and output are set per plugin, whatever this says.)
  public var limits: LuaSandbox?
  /// The capabilities the app consents to grant this plugin when its manifest asks; nil
  /// for the host's ``PluginHost/allowed``. A manifest asking for more fails to load with
  /// ``PluginError/capabilitiesNotAllowed(plugin:capabilities:)``.
  public var allowed: Set<PluginCapability>?

  /// Creates a policy; the defaults are the host's: an "Error in plugin NAME" alert with
  /// "That sucks", no retry, no reset, the host's limits and capabilities.
  public init(
    title: String? = nil, dismissLabel: String = "That sucks", offersRetry: Bool = false,
    retryLabel: String = "Try again", offersReset: Bool = false, resetLabel: String = "Reset",
    resetKeys: Set<String> = [], onError: BoundaryFilter? = nil, limits: LuaSandbox? = nil,
    allowed: Set<PluginCapability>? = nil
  ) {
    self.title = title
    self.dismissLabel = dismissLabel
    self.offersRetry = offersRetry
    self.retryLabel = retryLabel
    self.offersReset = offersReset
    self.resetLabel = resetLabel
    self.resetKeys = resetKeys
    self.onError = onError
    self.limits = limits
    self.allowed = allowed
  }

  /// The panel's boundary for the plugin `name`; `reset` restarts the plugin.
  func boundary(for name: String, reset: @escaping (View) throws -> Void) -> BoundaryConfiguration {
    var configuration = BoundaryConfiguration(
      title: title ?? "Error in plugin \(name)", dismissLabel: dismissLabel, isIsolated: true,
      offersRetry: offersRetry, retryLabel: retryLabel, resetLabel: resetLabel,
      resetKeys: resetKeys, onError: onError, onReset: offersReset ? reset : nil)
    configuration.owner = name  // the error log's attribution
    return configuration
  }
}
