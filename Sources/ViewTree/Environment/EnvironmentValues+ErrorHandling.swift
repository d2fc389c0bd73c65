// MARK: - Error handling keys

/// The key for ``EnvironmentValues/alertPresenter``.
public enum AlertPresenterKey: EnvironmentKey {
  /// No presenter: alerts are still kept on their boundary.
  public static var defaultValue: (any AlertPresenter)? { nil }
}

extension EnvironmentValues {
  /// The handler for errors raised in this view's subtree, bound to the view.
  ///
  /// It routes an error to the nearest error boundary at or above the view, or
  /// to the root default handler if there is none.
  public var errorHandler: ErrorHandler {
    ErrorHandler(origin: view)
  }

  /// The presenter that draws alerts for boundaries at or below the view where it is set.
  ///
  /// Usually set on the window. The environment holds it strongly, so a
  /// presenter must not hold the tree strongly.
  public var alertPresenter: (any AlertPresenter)? {
    get { self[AlertPresenterKey.self] }
    nonmutating set { self[AlertPresenterKey.self] = newValue }
  }
}
