/// A container without layout: makes a ``ViewKind/group`` view.
public struct Group: Component {
  /// The view's id; `group` by default.
  public var id: String
  /// The children.
  public var content: ComponentGroup

  /// Creates a group.
  public init(id: String = "group", @ComponentBuilder content: () -> ComponentGroup) {
    self.id = id
    self.content = content()
  }

  /// Empty; never evaluated when mounting.
  public var body: EmptyComponent { return EmptyComponent() }
}

extension Group: NodeComponent {
  func makeNode() -> View { View.group(id: id) }
  func mountContent(into node: View) { content.mountParts(into: node) }
}
