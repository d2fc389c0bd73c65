/// A container that lays its children out in order: makes a ``ViewKind/stack`` view.
public struct Stack: Component {
  /// The view's id; `stack` by default.
  public var id: String
  /// The children.
  public var content: ComponentGroup

  /// Creates a stack.
  public init(id: String = "stack", @ComponentBuilder content: () -> ComponentGroup) {
    self.id = id
    self.content = content()
  }

  /// Empty; never evaluated when mounting.
  public var body: EmptyComponent { return EmptyComponent() }
}

extension Stack: NodeComponent {
  func makeNode() -> View { View.stack(id: id) }
  func mountContent(into node: View) { content.mountParts(into: node) }
}
