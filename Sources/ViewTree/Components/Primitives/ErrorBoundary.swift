/// An error-handling boundary: catches errors from its content and presents them as alerts.
///
/// It puts its ``ErrorHandler`` into the environment of every view below it;
/// the nearest boundary above a failing view presents the alert.
public struct ErrorBoundary: Component {
  /// The view's id; `boundary` by default.
  public var id: String
  /// How the boundary presents and filters errors.
  public var configuration: BoundaryConfiguration
  /// The content whose errors this boundary catches.
  public var content: ComponentGroup

  /// Creates a boundary; the defaults give the "Error" / "That sucks" alert.
  public init(
    id: String = "boundary", title: String = "Error", dismissLabel: String = "That sucks",
    onError: BoundaryFilter? = nil, @ComponentBuilder content: () -> ComponentGroup
  ) {
    self.id = id
    self.configuration = BoundaryConfiguration(
      title: title, dismissLabel: dismissLabel, onError: onError)
    self.content = content()
  }

  /// Creates a boundary that does what `configuration` says (title, labels, retry, reset,
  /// reset keys, filter); the modifiers in `ErrorBoundary+Modifiers.swift` say the same
  /// one part at a time.
  public init(
    id: String = "boundary", _ configuration: BoundaryConfiguration,
    @ComponentBuilder content: () -> ComponentGroup
  ) {
    self.id = id
    self.configuration = configuration
    self.content = content()
  }

  /// Empty; never evaluated when mounting.
  public var body: EmptyComponent { return EmptyComponent() }
}

/// The seed's name for ``ErrorBoundary``.
public typealias ErrorHandlingView = ErrorBoundary

extension ErrorBoundary: NodeComponent {
  func makeNode() -> View { View.boundary(id: id, configuration) }
  func mountContent(into node: View) { content.mountParts(into: node) }
}
