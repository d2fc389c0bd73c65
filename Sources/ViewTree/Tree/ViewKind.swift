/// The role a ``View`` plays in the tree.
///
/// The raw value is the case name, which the scripting bridge can show as is.
public enum ViewKind: String, CaseIterable, Hashable, Sendable {
  /// The root of a tree; it owns the root default error handler.
  case window
  /// A container that lays its children out in order.
  case stack
  /// A container without layout of its own.
  case group
  /// A static label.
  case text
  /// A control with a tap action.
  case button
  /// An editable string with an on-change action.
  case textField
  /// An error-handling boundary that catches errors from its subtree.
  case boundary
}
