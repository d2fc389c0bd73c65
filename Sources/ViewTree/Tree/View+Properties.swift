// MARK: - Common properties

extension View {
  /// The `title` property: a button's label, a text field's placeholder, a window's title.
  public var title: String? {
    get { properties["title"]?.stringValue }
    set { properties["title"] = newValue.map(PropertyValue.string) }
  }

  /// The `text` property of a text view.
  public var text: String? {
    get { properties["text"]?.stringValue }
    set { properties["text"] = newValue.map(PropertyValue.string) }
  }

  /// The `value` property of a text field; empty if unset. Change it with ``setValue(_:)``.
  public var value: String {
    properties["value"]?.stringValue ?? ""
  }
}
