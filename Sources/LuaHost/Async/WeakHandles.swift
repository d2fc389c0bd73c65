import ViewTree

// Weak references kept in constants. A closure that captures one of these reads an
// immutable value; a `[weak x]` capture is a mutable box, and every read of it is an access
// the runtime checks for exclusivity (`swift_beginAccess`, about 80 instructions under
// callgrind). The tree's bridge closures read their tree on every call from Lua.

/// The tree, carried into its timer and action tasks (they reach its state only through
/// `runAction` and `callingLua`, which take the state's lock) and into its bridge closures.
struct WeakTree: @unchecked Sendable {
  weak var tree: ScriptedTree?
}

/// A view held weakly, to carry into a task (used under `View.treeLock` only).
struct WeakView: @unchecked Sendable {
  weak var view: View?
  init(_ view: View?) { self.view = view }
}
