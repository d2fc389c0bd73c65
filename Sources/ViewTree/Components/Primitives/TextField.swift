/// An editable string: makes a ``ViewKind/textField`` view.
///
/// ``View/setValue(_:)`` stores a new value and runs `onChange`; an error it
/// throws goes to the nearest error boundary.
public struct TextField: Component {
  /// The view's id; `textField` by default.
  public var id: String
  /// The placeholder title.
  public var title: String
  /// The initial value.
  public var value: String
  /// The action run after the value changes; it receives the field's view.
  public var onChange: ViewAction?

  /// Creates a text field.
  public init(
    _ title: String, id: String = "textField", value: String = "",
    onChange: ViewAction? = nil
  ) {
    self.id = id
    self.title = title
    self.value = value
    self.onChange = onChange
  }

  /// Empty; never evaluated when mounting.
  public var body: EmptyComponent { return EmptyComponent() }
}

extension TextField: NodeComponent {
  func makeNode() -> View { View.textField(title, id: id, value: value, onChange: onChange) }
  func mountContent(into node: View) {}
}
