/// Reads a value from the environment of the view a component is mounted into.
///
/// ```swift
/// @Environment(\.errorHandler) var errorHandler
/// @Environment(\.[named: "theme"]) var theme
/// ```
///
/// Mounting binds the property (through `Mirror`, once per mount) to the view
/// the component is mounted into; every read then resolves live from that
/// view. Before mounting, or once that view is gone, reads give the defaults.
/// Only stored properties of the component itself are bound, and a component
/// value should be mounted once: mounting the same value again rebinds it.
@propertyWrapper
public struct Environment<Value> {
  private let keyPath: KeyPath<EnvironmentValues, Value>
  let binding = EnvironmentBinding()

  /// Creates a property that reads `keyPath`.
  public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {
    self.keyPath = keyPath
  }

  /// The value at the key path, as the bound view sees it now.
  public var wrappedValue: Value {
    EnvironmentValues(view: binding.view)[keyPath: keyPath]
  }

  /// The view this property reads from, once mounted.
  public var projectedValue: View? {
    binding.view
  }
}

/// The view an ``Environment`` property reads from; held weakly, so actions
/// that capture a component do not keep its views alive.
final class EnvironmentBinding {
  weak var view: View?
}

/// A stored property that mounting binds to a view.
protocol EnvironmentBindable {
  func bind(to view: View)
}

extension Environment: EnvironmentBindable {
  func bind(to view: View) {
    binding.view = view
  }
}
