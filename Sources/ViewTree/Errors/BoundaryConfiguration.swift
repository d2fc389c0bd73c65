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

  /// Creates a configuration; the defaults give the "Error" / "That sucks" alert.
  public init(
    title: String = "Error", dismissLabel: String = "That sucks", isIsolated: Bool = false,
    onError: BoundaryFilter? = nil
  ) {
    self.title = title
    self.dismissLabel = dismissLabel
    self.isIsolated = isIsolated
    self.onError = onError
  }

  /// The root default handler's configuration, for errors no boundary handled.
  public static var unhandled: BoundaryConfiguration {
    BoundaryConfiguration(title: "Unhandled error")
  }
}
