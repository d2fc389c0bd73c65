/// Mounts a view you make yourself: a view of an app-defined kind (a slider with its
/// Swift model, say), or a subtree built by hand. The closure runs once, when mounting.
/// A view that has a parent moves here; one that cannot go here (the view it would be
/// mounted into, or an ancestor of it) is not mounted, and the error goes to the nearest
/// boundary.
///
/// ```swift
/// ErrorBoundary(id: "board") {
///   CustomView { TaskList.makeView(id: "tasks", store: store) }
/// }
/// ```
public struct CustomView: Component {
  /// Makes the view.
  public var make: () -> View

  /// Creates a component that mounts what `make` returns.
  public init(_ make: @escaping () -> View) {
    self.make = make
  }

  /// Empty; never evaluated when mounting.
  public var body: EmptyComponent { return EmptyComponent() }
}

extension CustomView: ContainerComponent {
  func mountParts(into parent: View) {
    do {
      _ = try parent.add(make())
    } catch {
      ErrorRouter.route(error, from: parent)
    }
  }
}
