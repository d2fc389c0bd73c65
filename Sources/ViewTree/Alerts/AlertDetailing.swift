/// An error that supplies its own alert text, source location and traceback.
///
/// A scripting layer conforms its error type so alerts show the script's
/// location and traceback without this module knowing the language. Compute
/// costly text lazily: alerts read ``tracebackText`` only when asked.
public protocol AlertDetailing: Error {
  /// The alert's message; defaults to `String(describing: self)`.
  var alertMessage: String { get }

  /// Where the error happened, like `main.lua:3`, if known.
  var sourceLocation: String? { get }

  /// A multi-line traceback, if any.
  var tracebackText: String? { get }

  /// The Swift error this error carries across the scripting layer, if any: alerts take
  /// its `LocalizedError` text (description, failure reason, recovery suggestion).
  var underlyingError: (any Error)? { get }
  /// The alert's title, in place of the boundary's, if the error asks for one.
  var alertTitle: String? { get }
  /// The error's own ways out, shown as buttons before the boundary's (at most
  /// ``AlertAction/limit``).
  var alertActions: [AlertAction] { get }
  /// The account that pays for the alert this error raises when the view it came from has
  /// none: a script's error raised at a view the host made (its `ui.root`, a plugin's
  /// panel) is still the script's, and counts against its memory limit.
  var alertPayer: (any MemoryAccount)? { get }
  /// The error as an alert keeps it when its payer's memory limit cannot hold the whole
  /// alert: its text (and anything else it holds that a script made, such as the error
  /// value) cut with `cut`, so that the alert does not keep what was not paid for.
  func cutForMemory(_ cut: (String) -> String) -> any Error
}

extension AlertDetailing {
  /// `String(describing: self)`.
  public var alertMessage: String { String(describing: self) }

  /// No location.
  public var sourceLocation: String? { nil }

  /// No traceback.
  public var tracebackText: String? { nil }

  /// None.
  public var underlyingError: (any Error)? { nil }
  /// None: the boundary's title.
  public var alertTitle: String? { nil }
  /// None.
  public var alertActions: [AlertAction] { [] }
  /// None: only the view the error came from pays.
  public var alertPayer: (any MemoryAccount)? { nil }
  /// The error itself: an error that holds no text a script made has nothing to cut.
  public func cutForMemory(_ cut: (String) -> String) -> any Error { self }
}
