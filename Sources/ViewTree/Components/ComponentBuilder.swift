/// Builds a ``ComponentGroup`` from a block of components, with `if`, `switch` and `for`.
@resultBuilder
public enum ComponentBuilder {
  /// Wraps one component.
  public static func buildExpression<C: Component>(_ component: C) -> [any Component] {
    [component]
  }

  /// Joins the statements of a block.
  public static func buildBlock(_ parts: [any Component]...) -> [any Component] {
    parts.flatMap { $0 }
  }

  /// Supports `if` without `else`.
  public static func buildOptional(_ part: [any Component]?) -> [any Component] {
    part ?? []
  }

  /// Supports the first branch of `if`/`else` and `switch`.
  public static func buildEither(first part: [any Component]) -> [any Component] {
    part
  }

  /// Supports the second branch of `if`/`else` and `switch`.
  public static func buildEither(second part: [any Component]) -> [any Component] {
    part
  }

  /// Supports `for` loops.
  public static func buildArray(_ parts: [[any Component]]) -> [any Component] {
    parts.flatMap { $0 }
  }

  /// Supports `if #available`.
  public static func buildLimitedAvailability(_ part: [any Component]) -> [any Component] {
    part
  }

  /// Wraps the result in a ``ComponentGroup``.
  public static func buildFinalResult(_ parts: [any Component]) -> ComponentGroup {
    ComponentGroup(parts)
  }
}
