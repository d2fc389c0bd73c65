/// A button of an alert: a label, what kind of way out it is, and what choosing it does.
///
/// Every alert ends with its dismiss button. Before it come, in this order, the error's
/// own actions (a `RecoverableError`'s recovery options, a script's `ui.error` actions),
/// the actions a boundary's filter offered (``BoundaryDecision/offer(_:)``), "Try again"
/// when the boundary retries (``BoundaryConfiguration/offersRetry``) and the failed work
/// can run again, and "Reset" when the boundary has ``BoundaryConfiguration/onReset``.
///
/// The action's work runs only through ``View/choose(_:of:)`` (or ``View/choose(at:of:)``),
/// which holds ``View/treeLock``; that is what makes the unchecked `Sendable` hold.
public struct AlertAction: @unchecked Sendable, CustomStringConvertible {
  /// What choosing the action does, as far as the alert's boundary is concerned.
  public enum Role: Sendable, Equatable {
    /// Closes the alert and does nothing else (the "That sucks" button).
    case dismiss
    /// Runs the action's own work: a recovery option, a script's action.
    case recovery
    /// Runs the failed work again; an error from it comes back as the same alert, ×N.
    case retry
    /// Resets the boundary: its alerts go, ``BoundaryConfiguration/onReset`` rebuilds it.
    case reset
  }

  /// The button's label, such as "Free space".
  public private(set) var label: String

  /// What kind of way out it is.
  public let role: Role

  /// The work of a ``Role/recovery`` action: `true` if it recovered. An error it throws
  /// goes to the boundary's nearest handler, as any action's does.
  let perform: (() throws -> Bool)?

  /// Who made the action (a scripting layer marks its own), or `nil` for the app's. A
  /// sandboxed script may press only its own recovery actions: the app's are the user's.
  public let owner: ObjectIdentifier?

  /// An action that runs `perform` when chosen. It returns whether it recovered; a
  /// `false` or a throw leaves the error unrecovered (a throw raises its own alert).
  public init(_ label: String, owner: ObjectIdentifier? = nil, perform: @escaping () throws -> Bool)
  {
    self.label = label
    self.role = .recovery
    self.owner = owner
    self.perform = perform
  }

  /// An action of a boundary's own kind (dismiss, retry, reset): its work is the boundary's.
  init(_ label: String, role: Role) {
    self.label = label
    self.role = role
    self.owner = nil
    self.perform = nil
  }

  /// The label.
  public var description: String { label }

  /// The same action under another label.
  func relabeled(_ label: String) -> AlertAction {
    var copy = self
    copy.label = label
    return copy
  }

  /// The most actions an alert takes from an error or a filter; further ones are dropped,
  /// so that a hostile script cannot make an alert of a million buttons.
  public static let limit = 8

  /// The longest label kept, in characters; a longer one is cut and ends in "…".
  public static let labelLimit = 60

  /// `label` on one line, cut to ``labelLimit`` characters.
  public static func clip(_ label: String) -> String {
    let line = label.split(whereSeparator: \.isNewline).joined(separator: " ")
    guard line.count > labelLimit else { return line }
    return String(line.prefix(labelLimit - 1)) + "…"
  }
}
