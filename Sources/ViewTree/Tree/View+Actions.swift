// MARK: - Running actions

extension View {
  /// Runs ``onTap``; an error it throws goes to the nearest error boundary.
  ///
  /// - Returns: `true` if an action ran and returned normally.
  @discardableResult
  public func tap() -> Bool {
    guard let action = onTap else { return false }
    return perform(action)
  }

  /// Stores `newValue` as ``value`` and, if it changed, runs ``onChange``.
  ///
  /// An error thrown by the action goes to the nearest error boundary; the
  /// new value stays stored.
  /// - Returns: `false` only if the on-change action threw.
  @discardableResult
  public func setValue(_ newValue: String) -> Bool {
    guard properties["value"] != .string(newValue) else { return true }
    properties["value"] = .string(newValue)
    guard let action = onChange else { return true }
    return perform(action)
  }

  /// Runs `action` with this view; an error it throws goes to the nearest error boundary.
  ///
  /// This is the hot path behind ``tap()``: no allocation unless the action throws.
  /// - Returns: `true` if `action` returned normally.
  @discardableResult
  public func perform(_ action: ViewAction) -> Bool {
    do {
      try action(self)
      return true
    } catch {
      ErrorRouter.route(error, from: self)
      return false
    }
  }
}
