/// The role a ``View`` plays in the tree: one of the built-in kinds, or one an app defines
/// for its own components (`ViewKind("slider")`).
///
/// The raw value is the kind's name, which the scripting bridge can show as is.
public struct ViewKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The kind's name, such as `button` or an app's `slider`.
  public let rawValue: String

  /// A kind named `rawValue`.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// A kind named `name`: an app-defined component's kind.
  public init(_ name: String) { rawValue = name }

  /// The name.
  public var description: String { rawValue }

  /// The root of a tree; it owns the root default error handler.
  public static let window = ViewKind("window")
  /// A container that lays its children out in order.
  public static let stack = ViewKind("stack")
  /// A container without layout of its own.
  public static let group = ViewKind("group")
  /// A static label.
  public static let text = ViewKind("text")
  /// A control with a tap action.
  public static let button = ViewKind("button")
  /// An editable string with an on-change action.
  public static let textField = ViewKind("textField")
  /// An error-handling boundary that catches errors from its subtree.
  public static let boundary = ViewKind("boundary")

  /// The kinds ViewTree itself defines.
  public static let builtIn: [ViewKind] = [
    .window, .stack, .group, .text, .button, .textField, .boundary,
  ]
}
