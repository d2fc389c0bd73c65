// `RecoverableError` is Foundation's (on Linux not in FoundationEssentials).
#if canImport(Foundation)
  import Foundation
#endif

extension Alert {
  /// A button per recovery option of a `RecoverableError` (itself, or the Swift error a
  /// script error carries); choosing one calls `attemptRecovery(optionIndex:)`.
  static func recoveryActions(for error: any Error) -> [AlertAction] {
    #if canImport(Foundation)
      let carried = (error as? any AlertDetailing)?.underlyingError ?? error
      guard let recoverable = carried as? any RecoverableError else { return [] }
      return recoverable.recoveryOptions.enumerated().map { index, option in
        AlertAction(option) { recoverable.attemptRecovery(optionIndex: index) }
      }
    #else
      return []
    #endif
  }
}
