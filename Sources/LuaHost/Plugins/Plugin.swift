import Lua
import Synchronization
import ViewTree

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A loaded plugin: its own sandboxed `lua_State`, its own panel in the app tree, wrapped
/// in its own error boundary, so its errors raise alerts attributed to it and nothing else.
///
/// A plugin may be used from any thread. Its state is confined to the plugin's own lock:
/// ``run(_:)`` and ``call(_:_:)`` from different threads take turns, while different
/// plugins run at the same time. Taps that reach the plugin's views from the host take
/// the same lock, so the state never runs on two threads at once.
public final class Plugin: @unchecked Sendable {
  // `@unchecked Sendable` is justified: `path`, `manifest` and `policy` are immutable values;
  // `panel` is a view of the shared tree, touched only under `View.treeLock`; `tree`
  // and the Lua state are read and written only while holding the state's lock (`lua`
  // itself is immutable); `loaded` is atomic.

  /// Where the plugin came from: a `.lua` file, or a folder with `init.lua`.
  public let path: String
  /// What the plugin says about itself (or defaults for a plain file).
  public let manifest: PluginManifest
  /// What the app decided for the plugin when it was loaded; kept across reloads.
  public let policy: PluginPolicy
  /// The plugin's panel: an isolated boundary whose id is the plugin's name. Inside the
  /// plugin, `ui.root` is this panel and the plugin cannot reach above it. Touch it from
  /// Swift only while holding `View.treeLock` (see ``PluginHost/withTree(_:)``).
  public let panel: View
  /// The plugin's tree bridge and state; nil once unloaded.
  private var tree: ScriptedTree?
  private let loaded = Atomic<Bool>(true)
  /// The plugin's state, confined to its own lock; closed once unloaded.
  private let lua: LuaState
  /// The tree's pending work, kept after unloading (it then drains: unloading cancels it).
  private let pending: PendingWork

  /// When this version was loaded, in seconds since 1970 (a hot reload's alert names it).
  let loadedAt = time(nil)

  /// The plugin's name.
  public var name: String { manifest.name }
  /// Whether the plugin is loaded.
  public var isLoaded: Bool { loaded.load(ordering: .relaxed) }

  init(
    path: String, manifest: PluginManifest, policy: PluginPolicy, panel: View, tree: ScriptedTree
  ) {
    pending = tree.pendingWork
    self.path = path
    self.manifest = manifest
    self.policy = policy
    self.panel = panel
    self.lua = tree.lua
    self.tree = tree
  }

  /// Runs `body` with the plugin's state, confined to the plugin's lock, and through the
  /// panel's error handler: any failure (a script error, a timeout, running out of
  /// memory) becomes an alert on the panel. Safe to call from any thread; a caller that
  /// holds the tree lock has it set aside while `body` runs.
  /// - Returns: `body`'s result, or nil if it failed or the plugin is unloaded.
  @discardableResult
  public func run<T>(_ body: (LuaState) throws -> T) -> T? {
    View.treeLock.withoutLock {
      do {
        return try lua.withLock { lua -> T? in
          guard tree != nil, !lua.isClosed else { return nil }
          return try body(lua)
        }
      } catch {
        // The body's failure, or a wait for the state's lock refused as a deadlock (a
        // call across plugins in a cycle): either way the panel shows it.
        View.treeLock.withLock { _ = panel.environment.errorHandler.handle(error) }
        return nil
      }
    }
  }

  /// Runs `body` as ``run(_:)`` does, but returns its failure instead of showing it.
  func attempt(_ body: (LuaState) throws -> Void) -> (any Error)? {
    View.treeLock.withoutLock {
      do {
        try lua.withLock { lua in
          guard tree != nil, !lua.isClosed else { return }
          try body(lua)
        }
        return nil
      } catch {
        return error
      }
    }
  }

  /// Shows `error` (a failure of the main chunk, say) on the panel, as ``run(_:)`` does.
  func show(loadFailure error: any Error) {
    View.treeLock.withLock { _ = panel.environment.errorHandler.handle(error) }
  }

  /// Calls the global function `name` of the plugin (an event handler such as `on_event`),
  /// if it defines one; failures become alerts on the panel.
  /// - Returns: the function's results, or nil if it is missing or failed.
  @discardableResult
  public func call(_ name: String, _ arguments: LuaValue...) -> [LuaValue]? {
    run { lua -> [LuaValue]? in
      guard case .function(let function) = try lua.globals().rawGet(.string(LuaString(name))) else {
        return nil
      }
      return try function.call(arguments: arguments)
    } ?? nil
  }

  /// Calls the global function `name` of the plugin and returns its results once it has
  /// finished: it runs as a coroutine, so it may wait (`timer.sleep`, the host's async
  /// functions) while the caller awaits, and other plugins and the tree go on meanwhile.
  /// As with the plain ``call(_:_:)``, a failure becomes an alert on the panel.
  ///
  /// ```swift
  /// let summary = await host.plugin(named: "stats")?.call("summarize", "today")
  /// ```
  /// - Returns: the function's results, or nil if it is missing, failed, was cancelled
  ///   (cancelling the calling task stops it, without an alert) or the plugin was unloaded
  ///   meanwhile.
  @discardableResult
  public func call(
    _ name: String, _ arguments: LuaValue..., isolation: isolated (any Actor)? = #isolation
  ) async -> [LuaValue]? {
    let made: DrivenCall?
    do {
      made = try View.treeLock.withoutLock {
        try lua.withLock { lua -> DrivenCall? in
          guard let tree, !lua.isClosed,
            case .function(let function) = try lua.globals().rawGet(.string(LuaString(name)))
          else { return nil }
          return DrivenCall(
            tree: tree, coroutine: try tree.coroutine(for: function), arguments: arguments)
        }
      }
    } catch {
      show(error)
      return nil
    }
    guard let made else { return nil }
    // In a task the panel tracks, so that unloading the plugin (or removing its panel)
    // cancels it, as the caller's own cancellation does; cancelling stops the function
    // wherever it is, waiting or running.
    let outcome = LockedValue<Result<UncheckedResults, any Error>?>(nil)
    let task = View.treeLock.withLock { () -> Task<Void, Never> in
      var started: Task<Void, Never>?
      panel.track { finished in
        // On the state's executor: the function may run long.
        let task = Task(executorPreference: lua.executor) {
          do {
            let results = try await made.tree.drive(made.coroutine, arguments: made.arguments)
            outcome.withLock { $0 = .success(UncheckedResults(values: results)) }
          } catch {
            outcome.withLock { $0 = .failure(error) }
          }
          finished()
        }
        started = task
        return task
      }
      return started!
    }
    await withTaskCancellationHandler {
      await task.value
    } onCancel: {
      task.cancel()
    }
    switch outcome.withLock({ $0 }) {
    case .success(let results): return results.values
    case .failure(let error):
      // Cancelled by the caller (before it started, or while it ran or waited), or stopped
      // by the unload: nothing to show.
      let stopped = (error as? LuaError)?.kind == .interrupted || error is CancellationError
      if (stopped && Task.isCancelled) || !isLoaded { return nil }
      show(error)
      return nil
    case nil: return nil
    }
  }

  /// Shows `error` on the panel (a `ui.error` value as its alert says).
  private func show(_ error: any Error) {
    // Reading a `ui.error` value takes the state: before the tree lock.
    let shown = run { _ in tree.map { $0.presentable(error, origin: panel) } ?? error } ?? error
    View.treeLock.withLock { _ = panel.environment.errorHandler.handle(shown) }
  }

  /// Sends the event `name` to the plugin: calls its global function `name`, if it defines
  /// one, as a coroutine, so the handler may wait (`timer.sleep`, the host's async
  /// functions) without blocking the caller or other plugins. This returns at once; a
  /// handler that waits goes on in the background (``pendingWork`` counts it), and its
  /// failure, now or later, becomes an alert on the panel.
  /// - Returns: whether the plugin defines the handler.
  @discardableResult
  public func send(_ name: String, _ arguments: LuaValue...) -> Bool {
    run { lua -> Bool in
      guard case .function(let function) = try lua.globals().rawGet(.string(LuaString(name))),
        let tree
      else { return false }
      try tree.runAction(function, origin: panel) { _, _ in arguments }
      return true
    } ?? false
  }

  /// Whether the plugin's own code runs on this thread now (its state's lock is held
  /// here): a reset it causes must not restart it.
  var isBusyOnThisThread: Bool { lua.lock.isHeldByCurrentThread }

  /// Where the plugin's async work runs (its state's executor).
  var executor: LuaExecutor { lua.executor }

  /// The plugin's work in flight: handlers that wait, and timers. Empty once unloaded.
  public var pendingWork: PendingWork { pending }

  /// The memory the plugin's state uses, in bytes, or nil once unloaded.
  public var memoryInUse: Int? { run { $0.memoryInUse } }

  /// Stops the plugin's work from any thread, without waiting for its state: cancels its
  /// timers and waiting actions, then interrupts the code it runs now (as Ctrl-C would; it
  /// fails with `.interrupted`, which its panel shows). A host that shuts down calls this
  /// before ``PluginHost/unload(_:)``, which waits for the running code to return: a
  /// plugin looping in a timer would otherwise hold the exit until its deadline.
  public func interrupt() {
    View.treeLock.withLock { panel.cancelWork() }
    lua.interruptHandle.interrupt()
  }

  /// Closes the state (giving its memory back) and removes the panel from the tree. From
  /// any thread, and from inside the plugin's own code (a host module function it called,
  /// its tap, its timer): the state then closes once that code has returned, and nothing of
  /// the plugin runs after that.
  func unload() {
    let refused = View.treeLock.withoutLock { () -> Bool in
      do {
        try lua.withLock { lua in
          lua.close()
          tree = nil
          loaded.store(false, ordering: .relaxed)
        }
        return false
      } catch {
        return true
      }
    }
    // Waiting for the state here would deadlock (its code waits for a state this thread
    // holds): unload once this thread has let go, from a task.
    if refused {
      // On the state's executor, not the cooperative pool: it waits for the lock.
      Task.detached(executorPreference: lua.executor) { self.unload() }
      return
    }
    View.treeLock.withLock {
      _ = panel.removeFromParent()
      panel.cancelWork()  // also when the panel had no parent any more
    }
  }
}

/// A call's coroutine, carried into the task that drives it. The unchecked conformance
/// holds: the task is its only user until it ends, and each step of the coroutine takes
/// the state's lock.
private struct DrivenCall: @unchecked Sendable {
  let tree: ScriptedTree
  let coroutine: LuaCoroutine
  let arguments: [LuaValue]
}

/// A call's results, carried out of its task to the awaiting caller, who alone reads them
/// once the task has ended.
private struct UncheckedResults: @unchecked Sendable {
  let values: [LuaValue]
}
