import Lua
import ViewTree

extension Plugin {
  /// Calls the plugin's global function `name` and converts its first result to `T` while
  /// the plugin's lock is still held: a table it returns can be read only there (a
  /// `[String]`, a `LuaCodable` model), so this is the way to get one out. A failure, or
  /// a result that does not convert, becomes an alert on the panel.
  /// - Returns: the converted result, or nil if the function is missing or failed.
  public func call<T: LuaConvertible>(_ name: String, _ arguments: LuaValue..., as type: T.Type)
    -> T?
  {
    run { lua -> T? in
      guard case .function(let function) = try lua.globals().rawGet(.string(LuaString(name)))
      else { return nil }
      return try T(luaValue: function.call(arguments: arguments).first ?? .nil)
    } ?? nil
  }
}
