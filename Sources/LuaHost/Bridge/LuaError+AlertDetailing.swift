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
  /// The error with its message, and a string error value, cut; its traceback's frames
  /// (each bounded in size) are kept. A Swift error that crossed Lua is the host's own and
  /// is kept as it is.
  public func cutForMemory(_ cut: (String) -> String) -> any Error {
    var copy = self
    copy.message = cut(message)
    if case .string = value { copy.value = .string(LuaString(copy.message)) }
    return copy
  }
}
