/// A primitive component that makes exactly one view.
protocol NodeComponent {
  /// Makes the view, without its children.
  func makeNode() -> View
  /// Mounts the children into `node`, which is already in the tree.
  func mountContent(into node: View)
}

/// A primitive component that makes zero or more sibling views.
protocol ContainerComponent {
  func mountParts(into parent: View)
}

/// Turns components into live views.
///
/// A view joins the tree before its children are mounted, so a component's
/// `body` can already read the environment of its ancestors. Mounting recurses
/// once per component level; it is meant for trees written in source, while
/// deep trees built at run time use ``View/add(_:)``.
enum Mounter {
  static func mount<C: Component>(_ component: C, into parent: View) {
    if let primitive = component as? any NodeComponent {
      let node = primitive.makeNode()
      parent.appendNew(node)
      primitive.mountContent(into: node)
    } else if let container = component as? any ContainerComponent {
      container.mountParts(into: parent)
    } else {
      for child in Mirror(reflecting: component).children {
        (child.value as? any EnvironmentBindable)?.bind(to: parent)
      }
      mount(component.body, into: parent)
    }
  }
}

// MARK: - Entry points

extension View {
  /// Mounts `component` as new children of this view.
  ///
  /// - Returns: The views added directly under this view.
  @discardableResult
  public func mount<C: Component>(_ component: C) -> [View] {
    let start = children.count
    Mounter.mount(component, into: self)
    return start < children.count ? Array(children[start...]) : []
  }

  /// Mounts the components `content` builds as new children of this view.
  ///
  /// - Returns: The views added directly under this view.
  @discardableResult
  public func mount(@ComponentBuilder _ content: () -> ComponentGroup) -> [View] {
    mount(content())
  }
}
