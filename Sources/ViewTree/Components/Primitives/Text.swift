/// A static label: makes a ``ViewKind/text`` view.
public struct Text: Component {
  /// The view's id; `text` by default.
  public var id: String
  /// The text shown.
  public var text: String

  /// Creates a label showing `text`.
  public init(_ text: String, id: String = "text") {
    self.id = id
    self.text = text
  }

  /// Empty; never evaluated when mounting.
  public var body: EmptyComponent { return EmptyComponent() }
}

extension Text: NodeComponent {
  func makeNode() -> View { View.text(text, id: id) }
  func mountContent(into node: View) {}
}
