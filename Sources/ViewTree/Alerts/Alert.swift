#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An alert a boundary presents for an error: the data a presenter draws.
///
/// The text comes from Swift's error vocabulary: an error that conforms to
/// `LocalizedError` shows its `errorDescription` as the ``message``, with
/// ``failureReason`` and ``recoverySuggestion`` below it; any other error shows its
/// description (`CustomStringConvertible`, or `String(describing:)`). An
/// ``AlertDetailing`` error (a script error) adds its location and traceback.
public struct Alert: Sendable {
  /// The title, such as "Error" or "Unhandled error".
  public let title: String

  /// The error's description, or its ``AlertDetailing/alertMessage``.
  public let message: String

  /// The label of the dismiss button, such as "That sucks".
  public let dismissLabel: String

  /// The path of the view the error came from, like `root/settings/crash`.
  public let path: String

  /// Whether the root default handler made this alert because no boundary handled the error.
  public let isUnhandled: Bool

  /// How many times this alert was raised while pending (×N).
  public internal(set) var count = 1

  /// The error presented: the first one raised, or the replacement a filter chose.
  public let error: any Error

  /// The buttons, in order; the last is the dismiss button (``dismissLabel``), the default.
  public internal(set) var actions: [AlertAction]

  /// What each boundary did with the error on its way here: "inner declined · outer
  /// presented" (``HandlerStep``; `handlerChain.chainDescription` is that line).
  public let handlerChain: [HandlerStep]

  /// The work that failed, if it can run again.
  var retry: RetryableWork?

  /// Who pays for this alert while it is pending, and how much (see ``MemoryAccount``).
  var charge: (account: any MemoryAccount, bytes: Int)?

  /// Where the error happened, if the error is ``AlertDetailing`` and knows.
  public var sourceLocation: String? { Self.sourceLocation(of: error) }

  /// The error's traceback, if it is ``AlertDetailing`` and has one; made on each read.
  public var traceback: String? { Self.traceback(of: error) }

  /// Why the error happened: a `LocalizedError`'s `failureReason` (read on each access).
  public var failureReason: String? { Self.localized(error)?.failureReason }

  /// What the user can do about it: a `LocalizedError`'s `recoverySuggestion`.
  public var recoverySuggestion: String? { Self.localized(error)?.recoverySuggestion }

  /// Whether `other` is the same alert: same title, message and origin path. A repeat of
  /// the same alert while it is pending counts (×N) instead of queueing.
  public func isSame(as other: Alert) -> Bool {
    title == other.title && message == other.message && path == other.path
  }

  init(
    title: String, message: String, dismissLabel: String, path: String, isUnhandled: Bool,
    error: any Error, actions: [AlertAction] = [], handlerChain: [HandlerStep] = []
  ) {
    self.title = title
    self.message = message
    self.dismissLabel = dismissLabel
    self.path = path
    self.isUnhandled = isUnhandled
    self.error = error
    self.actions = actions.isEmpty ? [AlertAction(dismissLabel, role: .dismiss)] : actions
    self.handlerChain = handlerChain
  }
}

// MARK: - Records

extension Alert {
  /// This alert as a record to keep once it is gone, as a console's history does: its
  /// title, path, count and message (cut to `messageLimit` characters), with no error, no
  /// traceback and no buttons' work, so that keeping many costs little.
  public func record(messageLimit: Int = 1024) -> Alert {
    var text = message
    if let end = message.index(
      message.startIndex, offsetBy: messageLimit, limitedBy: message.endIndex),
      end < message.endIndex
    {
      text = String(message[..<end]) + "…"
    }
    var copy = Alert(
      title: title, message: text, dismissLabel: dismissLabel, path: path,
      isUnhandled: isUnhandled, error: RecordedError(message: text), handlerChain: handlerChain)
    copy.count = count
    return copy
  }
}

/// The error of an alert ``Alert/record(messageLimit:)`` made: only its message.
public struct RecordedError: Error, CustomStringConvertible {
  /// The alert's message, as recorded.
  public let message: String
  /// The message.
  public var description: String { message }
}

// MARK: - Memory

extension Alert {
  /// What a pending alert costs: its strings, the error's own copy of its message and
  /// value (about the message's size again), and a traceback's worth.
  static func memoryCost(
    title: String, message: String, path: String, actions: [AlertAction] = []
  ) -> Int {
    2 * message.utf8.count + title.utf8.count + path.utf8.count + 4096
      + actions.reduce(0) { $0 + $1.label.utf8.count + 64 }
  }

  /// What the alert costs while something keeps it (a script's `alert:choose`): as much as
  /// while it is pending.
  public var memoryCost: Int {
    Self.memoryCost(title: title, message: message, path: path, actions: actions)
  }

  /// Gives the alert's charge back; call once, when the alert stops being pending.
  func releaseCharge() {
    if let charge { charge.account.release(charge.bytes) }
  }
}

// MARK: - Reading errors

extension Alert {
  /// The text an alert shows for `error`: a `LocalizedError`'s `errorDescription` (also
  /// when it is the ``AlertDetailing/underlyingError`` of a script error), else an
  /// ``AlertDetailing`` error's ``AlertDetailing/alertMessage``, else its description.
  public static func message(for error: any Error) -> String {
    texts(for: error).message
  }

  /// The message and the title an error asks for, with one cast to each protocol (this is
  /// on the path of every routed error).
  static func texts(for error: any Error) -> (message: String, title: String?) {
    guard let detailed = error as? any AlertDetailing else {
      let description = (error as? any LocalizedError)?.errorDescription
      return (description ?? String(describing: error), nil)
    }
    let localized = detailed.underlyingError as? any LocalizedError
    return (localized?.errorDescription ?? detailed.alertMessage, detailed.alertTitle)
  }

  /// The `LocalizedError` behind `error`: itself, or the Swift error a script error wraps.
  static func localized(_ error: any Error) -> (any LocalizedError)? {
    if let detailed = error as? any AlertDetailing {
      return detailed.underlyingError as? any LocalizedError
    }
    return error as? any LocalizedError
  }

  static func sourceLocation(of error: any Error) -> String? {
    (error as? any AlertDetailing)?.sourceLocation
  }

  static func traceback(of error: any Error) -> String? {
    (error as? any AlertDetailing)?.tracebackText
  }
}

extension Alert: CustomStringConvertible {
  /// One line such as `Error: MyError() [root/guard/crash] ×2 (That sucks)`; with more
  /// buttons, `(Try again | That sucks)`.
  public var description: String {
    let times = count > 1 ? " ×\(count)" : ""
    let buttons = actions.map(\.label).joined(separator: " | ")
    return "\(title): \(message) [\(path)]\(times) (\(buttons))"
  }
}
