import Lua
import ViewTree

extension LuaError {
  /// The error as the standalone `lua` interpreter prints it: the message, then the
  /// traceback if one was recorded. An error object that names itself with `__tostring`
  /// prints just that name. A Swift error that crossed Lua shows what its alert would (a
  /// `LocalizedError`'s description).
  public var consoleDescription: String {
    switch (kind, value) {
    case (.runtime, .table), (.runtime, .userdata):
      if !message.hasPrefix("(error object is") { return message.visibleControls() }
    default: break
    }
    let text = kind == .swift ? Alert.message(for: self) : message
    // The message and the traceback hold text the script chose (its error values, chunk
    // names): control characters show as escapes, so none reaches the terminal raw.
    return (traceback.isEmpty ? text : "\(text)\n\(traceback)").visibleControls()
  }
}
