import Lua

extension LuaError {
  /// The error as the standalone `lua` interpreter prints it: the message, then the
  /// traceback if one was recorded. An error object that names itself with `__tostring`
  /// prints just that name.
  public var consoleDescription: String {
    switch (kind, value) {
    case (.runtime, .table), (.runtime, .userdata):
      if !message.hasPrefix("(error object is") { return message }
    default: break
    }
    return traceback.isEmpty ? message : "\(message)\n\(traceback)"
  }
}
