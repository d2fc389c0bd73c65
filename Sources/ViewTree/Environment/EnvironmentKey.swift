/// A key for a typed value in a view's environment, as in SwiftUI.
///
/// Declare a key and expose it as a property of ``EnvironmentValues``; use a
/// `nonmutating set` so the property works on the live environment:
///
/// ```swift
/// struct ThemeKey: EnvironmentKey { static let defaultValue = "light" }
/// extension EnvironmentValues {
///   var theme: String {
///     get { self[ThemeKey.self] }
///     nonmutating set { self[ThemeKey.self] = newValue }
///   }
/// }
/// ```
public protocol EnvironmentKey {
  /// The type of value the key stores.
  associatedtype Value

  /// The value seen where no view in the parent chain sets one.
  static var defaultValue: Value { get }
}
