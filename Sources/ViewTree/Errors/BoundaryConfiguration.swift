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

  /// Creates a configuration; the defaults give the "Error" / "That sucks" alert.
  public init(
    title: String = "Error", dismissLabel: String = "That sucks", onError: BoundaryFilter? = nil
  ) {
    self.title = title
    self.dismissLabel = dismissLabel
    self.onError = onError
  }

  /// The root default handler's configuration, for errors no boundary handled.
  public static var unhandled: BoundaryConfiguration {
    BoundaryConfiguration(title: "Unhandled error")
  }
}
