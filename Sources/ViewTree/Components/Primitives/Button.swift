/// A control that runs an action when tapped: makes a ``ViewKind/button`` view.
///
/// An error the action throws goes to the nearest error boundary.
public struct Button: Component {
  /// The view's id; `button` by default.
  public var id: String
  /// The label.
  public var title: String
  /// The action ``View/tap()`` runs; it receives the button's view.
  public var action: ViewAction

  /// Creates a button titled `title` that runs `action`.
  public init(_ title: String, id: String = "button", action: @escaping ViewAction) {
    self.id = id
    self.title = title
    self.action = action
  }

  /// Empty; never evaluated when mounting.
  public var body: EmptyComponent { return EmptyComponent() }
}

extension Button: NodeComponent {
  func makeNode() -> View { View.button(title, id: id, onTap: action) }
  func mountContent(into node: View) {}
}
