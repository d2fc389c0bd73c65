// MARK: - Making views of each kind

extension View {
  /// Makes a window: the root of a tree.
  public static func window(id: String = "root", title: String? = nil) -> View {
    let view = View(id: id, kind: .window)
    view.title = title
    return view
  }

  /// Makes a stack container.
  public static func stack(id: String = "stack") -> View {
    View(id: id, kind: .stack)
  }

  /// Makes a group container.
  public static func group(id: String = "group") -> View {
    View(id: id, kind: .group)
  }

  /// Makes a text view showing `text`.
  public static func text(_ text: String, id: String = "text") -> View {
    View(id: id, kind: .text, properties: ["text": .string(text)])
  }

  /// Makes a button titled `title` that runs `onTap` when tapped.
  public static func button(
    _ title: String, id: String = "button", onTap: ViewAction? = nil
  ) -> View {
    let view = View(id: id, kind: .button, properties: ["title": .string(title)])
    view.onTap = onTap
    return view
  }

  /// Makes a text field holding `value` that runs `onChange` when the value changes.
  public static func textField(
    _ title: String = "", id: String = "textField", value: String = "",
    onChange: ViewAction? = nil
  ) -> View {
    let view = View(
      id: id, kind: .textField,
      properties: ["title": .string(title), "value": .string(value)])
    view.onChange = onChange
    return view
  }

  /// Makes an error boundary with `configuration`.
  public static func boundary(
    id: String = "boundary", _ configuration: BoundaryConfiguration = BoundaryConfiguration()
  ) -> View {
    let view = View(id: id, kind: .boundary)
    view.boundary = configuration
    return view
  }
}
