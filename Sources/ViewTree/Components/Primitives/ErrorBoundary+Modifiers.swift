/// SwiftUI-style modifiers for what a boundary does beyond its alert: each returns the
/// boundary with one more part of its ``BoundaryConfiguration`` set.
///
/// ```swift
/// ErrorBoundary(id: "editor") { Editor() }
///   .retry("Save again")
///   .onReset { document.revert() }           // then the content is built again
///   .resetKeys("document")
///   .onError { error, _ in error is CancellationError ? .decline : .handle }
/// ```
extension ErrorBoundary {
  /// The alert offers a retry button labelled `label`, which runs the failed work again.
  public func retry(_ label: String = "Try again") -> ErrorBoundary {
    var copy = self
    copy.configuration.offersRetry = true
    copy.configuration.retryLabel = label
    return copy
  }

  /// The alert offers a reset button labelled `label`. Resetting (the button, or a change
  /// of one of the ``resetKeys(_:)``) removes the boundary's views, runs `action` (put the
  /// state that failed back, say), and builds the boundary's content again, fresh, as
  /// react-error-boundary re-renders its children. The content is built even when
  /// `action` throws (the boundary is never left empty); the error then goes up from the
  /// boundary's parent. The views are new: Swift code that kept one of the old ones (a
  /// plugin host's container, say) should find it again after a reset.
  public func onReset(_ label: String = "Reset", perform action: @escaping () throws -> Void = {})
    -> ErrorBoundary
  {
    var copy = self
    let content = content
    copy.configuration.resetLabel = label
    copy.configuration.onReset = { boundary in
      defer { content.mountParts(into: boundary) }
      try action()
    }
    return copy
  }

  /// Names of environment values (``EnvironmentValues/subscript(named:)``): setting one at
  /// the boundary or above it while the boundary shows an alert resets it (see
  /// ``onReset(_:perform:)``; without it, the alerts are only dismissed).
  public func resetKeys(_ names: String...) -> ErrorBoundary {
    var copy = self
    copy.configuration.resetKeys.formUnion(names)
    return copy
  }

  /// Decides per error what the boundary does: handle it, decline it (the next boundary up
  /// gets it), transform it or escalate it. Replaces any filter given before.
  public func onError(_ filter: @escaping BoundaryFilter) -> ErrorBoundary {
    var copy = self
    copy.configuration.onError = filter
    return copy
  }

  /// Errors stop at this boundary for good: a decline, an escalation or a failing filter
  /// is presented here instead of going further up.
  public func isolated(_ isIsolated: Bool = true) -> ErrorBoundary {
    var copy = self
    copy.configuration.isIsolated = isIsolated
    return copy
  }
}
