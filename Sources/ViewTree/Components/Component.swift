/// A description of part of a view tree, written like a SwiftUI view.
///
/// A component is a value that says which views to make. Mounting it (see
/// `View.mount(_:)` and ``Window/makeView()``) builds live ``View``s once;
/// after that the live tree is the truth and components are not re-evaluated.
///
/// ```swift
/// struct Settings: Component {
///   @Environment(\.errorHandler) var errorHandler
///   var body: some Component {
///     Button("Save") { _ in errorHandler { try save() } }
///   }
/// }
/// ```
///
/// A component makes no view of its own: its ``Environment`` properties
/// resolve at the view it is mounted into. Its `errorHandler`, used inside the
/// action of one of its views (the button above), routes from that view, as
/// SwiftUI's environment is per view: the alert names the button, and
/// removing the button cancels the work it started.
public protocol Component {
  /// The type of component the body returns.
  associatedtype Body: Component

  /// The components this one is made of.
  @ComponentBuilder var body: Body { get }
}

/// A component that makes no views.
public struct EmptyComponent: Component {
  /// Creates an empty component.
  public init() {}

  /// Itself; never evaluated when mounting.
  public var body: EmptyComponent { return self }
}

/// An ordered list of components, as a ``ComponentBuilder`` block produces.
public struct ComponentGroup: Component {
  /// The components, in order.
  public let parts: [any Component]

  /// Creates a group of `parts`.
  public init(_ parts: [any Component]) {
    self.parts = parts
  }

  /// Empty; never evaluated when mounting.
  public var body: EmptyComponent { return EmptyComponent() }
}

// MARK: - Mounting

extension EmptyComponent: ContainerComponent {
  func mountParts(into parent: View) {}
}

extension ComponentGroup: ContainerComponent {
  func mountParts(into parent: View) {
    for part in parts { Mounter.mount(part, into: parent) }
  }
}
