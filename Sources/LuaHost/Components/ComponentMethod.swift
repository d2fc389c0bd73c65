import Lua
import ViewTree

/// How a component's method becomes the Lua function scripts call (made once per tree, on
/// first use: see `ScriptedTree.method(_:of:)`).
@usableFromInline
enum ComponentMethod {
  /// Untyped: the view and the arguments after `self`, in arrays.
  case values(ScriptedComponent.Method)
  /// Typed: makes its own Lua function in the tree's state, which reads its arguments in
  /// place. The function calls `Receiver` first, holding the tree lock.
  case inPlace((LuaState, @escaping Receiver) throws -> LuaFunction)

  /// Reads `self` of a call: a view of the component's kind within the script's reach.
  /// Throws a Lua error naming `self` for anything else. Runs holding the tree lock.
  @usableFromInline
  typealias Receiver = (LuaArguments) throws -> View
}
