import Lua
import ViewTree

/// Alerts for Lua errors show the script's location and traceback.
extension LuaError: AlertDetailing {
  /// The message, or the Swift error's own text for errors that crossed Lua.
  public var alertMessage: String { message }
  /// `chunk:line` where the error was raised, if known.
  public var sourceLocation: String? { location?.description }
  /// The Lua traceback, formatted on demand.
  public var tracebackText: String? { traceback.isEmpty ? nil : traceback.description }
  /// The Swift error that crossed Lua (kind `LuaError/Kind/swift`), whose
  /// `LocalizedError` text the alert shows.
  public var underlyingError: (any Error)? { underlying }
  /// The script whose state raised the error.
  public var alertPayer: (any MemoryAccount)? { memoryAccount.map(ScriptMemoryAccount.init) }
}
