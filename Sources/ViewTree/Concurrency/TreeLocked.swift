/// An app's model guarded by the tree's own lock (``View/treeLock``): `Sendable` without
/// `@unchecked` in your code, for state that both a tree's synchronous code (components,
/// actions, boundary filters) and its async work (`errorHandler { try await … }`, a
/// plugin's async module function) use.
///
/// ```swift
/// struct Notes { var titles: [String] = [] }
/// let notes = TreeLocked(Notes())
///
/// Button("Sync", id: "sync") { _ in
///   errorHandler {
///     let fetched = try await server.titles()       // no lock held while waiting
///     notes.withValue { $0.titles = fetched }        // takes the tree lock
///   }
/// }
/// ```
///
/// Why the tree's lock and not a lock of its own: the tree's code reached from Lua (a
/// component's closures, a Lua tap's action) already holds it, so a read there costs
/// nothing more, and a change can update views in the same step
/// (`notes.withValue { …; heading.text = … }`) with one lock, so there is no lock order
/// to get wrong (a model behind a `Mutex` that updates views while holding it, and a view
/// action that reads the model, would wait for each other).
///
/// Inside ``withValue(_:)``, don't wait and don't run Lua: copy what you need out, await
/// or run, then come back. Code that runs Lua sets the tree lock aside, which would hand
/// the value to other threads while `body` still has it; it stops the process instead, as
/// a confined Lua state used without its lock does. Lua runs in: a tap or change of a
/// scripted view, `View.send` to a Lua handler, an error routed to a boundary with a Lua
/// `on_error`, `choose` or `reset` of a boundary with a Lua `on_reset`, a plugin call,
/// `withState`, and `PluginHost`'s `load`, `reload` and `unload`. (A Reset that restarts a
/// plugin runs later, in a task, so setting a reset key is safe here.) Nor take
/// ``withValue(_:)`` of the same value again inside it.
public final class TreeLocked<Value>: @unchecked Sendable {
  // `@unchecked Sendable` is justified: `value` is read and written only in `withValue`,
  // holding `View.treeLock`.
  private var value: Value

  /// Guards `value` with the tree lock from now on.
  public init(_ value: sending Value) { self.value = value }

  /// Runs `body` with the value, holding the tree lock (a reentrant lock: free where the
  /// tree's code holds it already). As with `Mutex`, what `body` returns must not share
  /// the value's references (`sending`): copy out what you need.
  public func withValue<T>(_ body: (inout sending Value) throws -> sending T) rethrows
    -> sending T
  {
    View.treeLock.lock()
    View.treeLock.pin()  // running Lua in `body` would set the lock aside: refused
    defer {
      View.treeLock.unpin()
      View.treeLock.unlock()
    }
    return try body(&value)
  }
}
