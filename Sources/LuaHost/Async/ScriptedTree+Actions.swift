import Lua
import ViewTree

/// A coroutine that one task drives; each of its steps takes the state's lock, so the
/// unchecked conformance holds (see `ScriptedTree.runAction`).
struct DrivenCoroutine: @unchecked Sendable {
  let coroutine: LuaCoroutine
}

extension ScriptedTree {
  /// Runs a Lua action (`on_tap`, `on_change`, an event, `timer.after`'s function) as a
  /// coroutine, so that it may call async functions. If it never waits, it runs to its
  /// end here and its error is thrown, as a plain call's would be. If it waits, this
  /// returns at once; the rest runs in a task tracked by `origin` (removing the view
  /// cancels it, and ``pendingWork`` counts it), and an error it raises later goes to
  /// `origin`'s nearest boundary.
  ///
  /// `arguments` runs under the state's lock too: making a view's userdata uses the state.
  /// With `passingOrigin`, the action receives `origin` first, as `self` (its userdata is
  /// pushed in place: making it a `LuaValue` was a third of a tap's cost), then
  /// `arguments`.
  /// An error raised with a `ui.error` value comes out as a ``ScriptedAlertError``. An
  /// error raised after a wait goes up with the action itself as the work "Try again"
  /// runs (a failure before any wait goes up from the view's ``View/perform(_:)``).
  func runAction(
    _ function: LuaFunction, origin: View, passingOrigin: Bool = false,
    arguments: @escaping (ScriptedTree, View) throws -> [LuaValue] = { _, _ in [] }
  ) throws {
    let suspended = try callingLua { () throws -> LuaCoroutine? in
      let outer = currentOrigin
      currentOrigin = origin
      defer { currentOrigin = outer }
      let coroutine: LuaCoroutine?
      do {
        coroutine = try LuaCoroutine.start(
          function, receiver: passingOrigin ? origin : nil, arguments: arguments(self, origin))
      } catch {
        throw presentable(error, origin: origin)
      }
      // Tapped by a finalizer as the state closes, the action could never go on: its tap
      // fails instead of accepting work that never runs (found by a hostile review). Read
      // here, holding the state's lock: a close on another thread writes it under the lock.
      if coroutine != nil, lua.isClosed {
        throw LuaError(kind: .runtime, message: "the action waits, but its Lua state is closing")
      }
      return coroutine
    }
    guard let suspended else { return }
    // The action removed its own view (or an ancestor) and then waited: what it would go
    // on with is cancelled, as removing the view cancels its work. Left running, it was
    // tracked by the removed view, which nothing cancels, and its errors had no boundary.
    // (Only an action that waits pays for the check.)
    if View.treeLock.withLock({ origin.isRemovedByItsAction }) { return }
    suspended.step = stepper(origin: origin)
    // Refused past the memory limit: the coroutine is dropped before its work started.
    let release = try chargePendingWork()
    // No weak reference to `origin` here: that would give the view a side table.
    let retry = RetryableWork(action: { [weak self] view in
      try self?.runAction(
        function, origin: view, passingOrigin: passingOrigin, arguments: arguments)
    })
    continueInBackground(
      DrivenCoroutine(coroutine: suspended), origin: origin, retry: retry, release: release)
  }

  /// Runs `function` (with `asMainChunk`, as a script's main chunk: below a C function, as
  /// `lua` runs one, so its traceback ends as stock's does; `...` are `arguments` either
  /// way, and no global `arg` is set) as a coroutine of this tree, as the host's own code, and returns its
  /// results once it finishes: it may wait for the host's async functions and
  /// `timer.sleep`, as `luahost script.lua` lets a script wait. Each step holds the state's
  /// lock with the tree lock set aside, so the tree's views stay usable meanwhile.
  ///
  /// ```swift
  /// let chunk = try tree.withState { try $0.load(file: "main.lua") }
  /// let results = try await tree.run(chunk, asMainChunk: true)
  /// ```
  /// Unless the caller is isolated to an actor, the script runs on the state's executor
  /// (`LuaState.executor`), off the cooperative pool. Cancelling the calling task stops
  /// the script (`.interrupted`); the state's deadline counts the time it waits.
  /// - Throws: `LuaError`: the script's error (with its traceback), `.timeout`, or
  ///   `.interrupted`.
  @discardableResult
  public func run(
    _ function: LuaFunction, arguments: [LuaValue] = [], asMainChunk: Bool = false,
    isolation: isolated (any Actor)? = #isolation
  ) async throws -> [LuaValue] {
    let coroutine = try coroutine(for: function, asMainChunk: asMainChunk)
    // On the state's executor from the first step: a script may run long.
    return try await withTaskExecutorPreference(lua.executor, isolation: isolation) {
      try await drive(coroutine, arguments: arguments, isolation: isolation)
    }
  }

  /// A coroutine of this tree for `function`, not started: its steps run as
  /// ``start(_:arguments:asMainChunk:)``'s do.
  func coroutine(for function: LuaFunction, asMainChunk: Bool = false) throws -> LuaCoroutine {
    try callingLua {
      try LuaCoroutine(function, asMainChunk: asMainChunk, step: stepper(origin: root))
    }
  }

  /// Runs `coroutine` from its start to its end. Cancelling the task stops it wherever it
  /// is, in its first stretch too (an endless loop with no deadline), not only where it
  /// waits.
  func drive(
    _ coroutine: LuaCoroutine, arguments: [LuaValue],
    isolation: isolated (any Actor)? = #isolation
  ) async throws -> [LuaValue] {
    try await coroutine.stoppingOnCancel {
      if case .finished(let results) = try coroutine.start(arguments: arguments) {
        return results
      }
      return try await coroutine.resumeUntilDone()
    }
  }

  /// Starts `function` (a script's main chunk, when `asMainChunk`) as a coroutine of this
  /// tree, as the host's own code, and runs it until it finishes or first waits: the step
  /// that ``run(_:arguments:asMainChunk:isolation:)`` takes before it awaits the rest. When it waits
  /// (`.suspended`), the caller finishes it with `LuaCoroutine.finish(isolation:)`; each
  /// later step takes the state's lock itself.
  /// - Throws: `LuaError` as a call does.
  public func start(_ function: LuaFunction, arguments: [LuaValue], asMainChunk: Bool = false)
    throws -> (coroutine: LuaCoroutine, progress: LuaCoroutine.Progress)
  {
    let coroutine = try coroutine(for: function, asMainChunk: asMainChunk)
    return (coroutine, try coroutine.start(arguments: arguments))
  }

  /// How each step of a coroutine started for `origin` runs: with the tree lock set aside
  /// and the state's lock held, and with `origin` as the view new timers belong to.
  func stepper(origin: View) -> (() -> Void) throws -> Void {
    let reference = WeakView(origin)
    let owner = WeakTree(tree: self)
    return { body in
      guard let tree = owner.tree else { return body() }
      try tree.callingLua {
        let outer = tree.currentOrigin
        tree.currentOrigin = reference.view
        defer { tree.currentOrigin = outer }
        body()
      }
    }
  }

  /// Finishes a suspended coroutine in a task tracked by `origin`.
  func continueInBackground(
    _ driven: DrivenCoroutine, origin: View, retry: RetryableWork,
    release: @escaping @Sendable () -> Void
  ) {
    let work = pendingWork
    let reference = WeakView(origin)
    let tree = WeakTree(tree: self)
    work.begin()
    let executor = lua.executor
    View.treeLock.withLock {
      origin.track { finished in
        // On the state's executor: its steps may run long, or wait for the state's lock.
        Task(executorPreference: executor) {
          do {
            _ = try await driven.coroutine.finish(isolation: nil)
          } catch let error as LuaError where error.kind == .interrupted && Task.isCancelled {
            // Cancelled with its view (or its tree): nothing to show.
          } catch {
            // Reading a `ui.error` value takes the state, so before the tree lock.
            var shown = error
            if let scripted = tree.tree, let view = reference.view {
              shown =
                (try? scripted.withState { _ in scripted.presentable(error, origin: view) })
                ?? error
            }
            View.treeLock.withLock {
              _ = reference.view?.environment.errorHandler.handle(shown, retry: retry)
            }
          }
          finished()
          release()
          work.end()
        }
      }
    }
  }
}
