/// A component with environment values set for it and everything in it.
///
/// Made by ``Component/environment(_:_:)`` and ``Component/environment(named:_:)``.
/// If the content makes exactly one view (a primitive or another modifier),
/// the values are set on that view; otherwise the content is wrapped in a
/// ``ViewKind/group`` view that holds them, so the content's own
/// ``Environment`` properties see them too.
public struct EnvironmentModifier<Content: Component>: Component {
  /// The modified component.
  public var content: Content
  let apply: (View) -> Void

  /// Empty; never evaluated when mounting.
  public var body: EmptyComponent { return EmptyComponent() }
}

extension EnvironmentModifier: NodeComponent {
  func makeNode() -> View {
    let node = (content as? any NodeComponent)?.makeNode() ?? View.group()
    apply(node)
    return node
  }

  func mountContent(into node: View) {
    if let primitive = content as? any NodeComponent {
      primitive.mountContent(into: node)
    } else {
      Mounter.mount(content, into: node)
    }
  }
}

// MARK: - Modifiers

extension Component {
  /// Sets the environment value at `keyPath` for this component and its content.
  public func environment<Value>(
    _ keyPath: ReferenceWritableKeyPath<EnvironmentValues, Value>, _ value: Value
  ) -> EnvironmentModifier<Self> {
    EnvironmentModifier(content: self) { $0.setEnvironment(keyPath, to: value) }
  }

  /// Sets the named environment value `name` for this component and its content.
  public func environment(named name: String, _ value: Any?) -> EnvironmentModifier<Self> {
    EnvironmentModifier(content: self) { $0.setEnvironment(named: name, to: value) }
  }
}
