/// Decides what a boundary does with an error from the view `origin` in its subtree.
///
/// - Throws: Any error; the boundary then passes
///   ``ViewTreeError/handlerFailed(boundary:original:failure:)`` to the next boundary up.
public typealias BoundaryFilter = (_ error: any Error, _ origin: View) throws -> BoundaryDecision

/// How an error boundary presents the errors it catches.
public struct BoundaryConfiguration {
  /// The alert title.
  public var title: String

  /// The label of the alert's dismiss button.
  public var dismissLabel: String

  /// Decides per error whether to handle, decline, transform or escalate; `nil` handles all.
  public var onError: BoundaryFilter?

  /// Whether errors stop here for good: a decline, an escalation or a failing filter is
  /// presented by this boundary instead of going further up. A plugin's panel is isolated,
  /// so nothing a plugin raises reaches the host's part of the tree.
  public var isIsolated: Bool

  /// Whether the alert offers "Try again" (``retryLabel``), which runs the failed work
  /// again: the view's action, or the body given to ``ErrorHandler``. If it fails again,
  /// the alert comes back counted ×N.
  public var offersRetry: Bool

  /// The label of the retry button.
  public var retryLabel: String

  /// Runs when the boundary resets: when its alert is dismissed with "Reset"
  /// (``resetLabel``), or when an environment value named in ``resetKeys`` changes while
  /// an alert is up. The boundary's children are removed first; `onReset` rebuilds them.
  /// An error it throws goes up from the boundary's parent. Without it, an alert has no
  /// reset button, and a reset key only dismisses the boundary's alerts.
  public var onReset: ((_ boundary: View) throws -> Void)?

  /// The label of the reset button.
  public var resetLabel: String

  /// Names of environment values (``EnvironmentValues/subscript(named:)``): setting one of
  /// them, at the boundary or above it, resets the boundary while it shows an alert, as
  /// react-error-boundary's `resetKeys` do.
  public var resetKeys: Set<String>
  /// Who the boundary's subtree belongs to, for attribution (the error log's `owner`): a
  /// plugin host sets its plugin's name on the plugin's panel. Set by host code only; a
  /// script cannot set it, so it cannot be forged by naming views.
  public var owner: String?

  /// Creates a configuration; the defaults give the "Error" / "That sucks" alert.
  public init(
    title: String = "Error", dismissLabel: String = "That sucks", isIsolated: Bool = false,
    offersRetry: Bool = false, retryLabel: String = "Try again", resetLabel: String = "Reset",
    resetKeys: Set<String> = [], onError: BoundaryFilter? = nil,
    onReset: ((_ boundary: View) throws -> Void)? = nil
  ) {
    self.title = title
    self.dismissLabel = dismissLabel
    self.isIsolated = isIsolated
    self.offersRetry = offersRetry
    self.retryLabel = retryLabel
    self.resetLabel = resetLabel
    self.resetKeys = resetKeys
    self.onReset = onReset
    self.onError = onError
  }

  /// The root default handler's configuration, for errors no boundary handled.
  public static var unhandled: BoundaryConfiguration {
    BoundaryConfiguration(title: "Unhandled error")
  }
}
