import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One routed error, as the error log sees it: apart from how (or whether) it is shown.
///
/// Every error the tree routes makes one entry, handled or not, also when its alert only
/// counts up (×N) or is dropped because the boundary's queue is full, like React's
/// `componentDidCatch` or Roblox's `ScriptContext.Error`.
public struct ErrorLogEntry: Sendable {
  /// When the error was routed.
  public let time: Date
  /// The error as presented (a filter's replacement, if one transformed it).
  public let error: any Error
  /// The alert's message for the error.
  public let message: String
  /// Where the error happened in a script, like `main.lua:3`, if known.
  public let sourceLocation: String?
  /// The path of the view the error came from.
  public let originPath: String
  /// The path of the boundary that presented it (the root's, if none handled it).
  public let boundaryPath: String
  /// What each boundary on the way did.
  public let handlerChain: [HandlerStep]
  /// Whether no boundary handled it.
  public let isUnhandled: Bool
  /// The ``BoundaryConfiguration/owner`` of the nearest boundary above the view the error
  /// came from that has one (a plugin's panel names its plugin), or nil.
  public let owner: String?
}

/// Receives every error routed in the subtree of the view where it is set (see
/// ``EnvironmentValues/errorLog``).
///
/// It is called while the tree routes the error, holding ``View/treeLock`` in a shared
/// tree, after the alert is queued: it must not wait for other locks, and must not hold
/// the tree strongly. An error log that raises nothing cannot loop.
public typealias ErrorLog = (ErrorLogEntry) -> Void

/// The key for ``EnvironmentValues/errorLog``.
public enum ErrorLogKey: EnvironmentKey {
  /// No log.
  public static var defaultValue: ErrorLog? { nil }

  /// Whether a log was ever set: until then routing an error does not look for one.
  static let wasEverSet = Atomic<Bool>(false)
}

extension EnvironmentValues {
  /// Where the errors routed below this view are logged, whether a boundary shows them or
  /// not. The log of the boundary that presents an error is used (the nearest one set at
  /// or above it).
  public var errorLog: ErrorLog? {
    get { self[ErrorLogKey.self] }
    nonmutating set { self[ErrorLogKey.self] = newValue }
  }
}
