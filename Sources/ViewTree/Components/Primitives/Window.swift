/// The root of a component tree: makes a ``ViewKind/window`` view.
///
/// ```swift
/// let root = Window(presenter: recorder) {
///   ErrorBoundary { Button("Crash") { _ in throw MyError() } }
/// }.makeView()
/// ```
public struct Window: Component {
  /// The window's id; `root` by default.
  public var id: String
  /// The window's title.
  public var title: String?
  /// The presenter set on the window for all alerts in the tree.
  public var presenter: (any AlertPresenter)?
  /// The window's content.
  public var content: ComponentGroup

  /// Creates a window.
  public init(
    id: String = "root", title: String? = nil, presenter: (any AlertPresenter)? = nil,
    @ComponentBuilder content: () -> ComponentGroup
  ) {
    self.id = id
    self.title = title
    self.presenter = presenter
    self.content = content()
  }

  /// Empty; never evaluated when mounting.
  public var body: EmptyComponent { return EmptyComponent() }

  /// Builds the live tree and returns its root.
  public func makeView() -> View {
    let node = makeNode()
    mountContent(into: node)
    return node
  }
}

extension Window: NodeComponent {
  func makeNode() -> View {
    let node = View.window(id: id, title: title)
    if let presenter { node.environment.alertPresenter = presenter }
    return node
  }

  func mountContent(into node: View) {
    content.mountParts(into: node)
  }
}
