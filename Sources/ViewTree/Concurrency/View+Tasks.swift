import Synchronization

/// A view reference that crosses into a task. The view is touched only while holding
/// `View.treeLock` (as every use of a shared tree is), which makes the unchecked
/// conformance hold.
struct ViewReference: @unchecked Sendable {
  weak var view: View?
}

extension View {
  /// How many views have running work (``track(_:)``), so that removing views costs
  /// nothing extra while none has.
  static let viewsWithWork = Atomic<Int>(0)

  /// Whether async work started from this view is still running.
  public var hasRunningWork: Bool { !runningWork.isEmpty }

  /// Makes `start`'s task part of this view's running work: removing the view from its
  /// tree (or any ancestor of it), or dropping it, cancels the task. `start` receives a
  /// function that the task calls when it ends, to leave the view's work.
  /// Call holding ``treeLock``.
  public func track(
    _ start: (_ finished: @escaping @Sendable () -> Void) -> Task<Void, Never>
  ) {
    let id = Self.nextWorkID.add(1, ordering: .relaxed).newValue
    let reference = ViewReference(view: self)
    let task = start {
      View.treeLock.withLock { reference.view?.finishWork(id) }
    }
    if runningWork.isEmpty { _ = Self.viewsWithWork.add(1, ordering: .relaxed) }
    runningWork[id] = task
  }

  private static let nextWorkID = Atomic<Int>(0)

  private func finishWork(_ id: Int) {
    guard runningWork.removeValue(forKey: id) != nil, runningWork.isEmpty else { return }
    _ = Self.viewsWithWork.subtract(1, ordering: .relaxed)
  }

  /// Cancels the running work of this view and of every view below it.
  public func cancelWork() {
    guard Self.viewsWithWork.load(ordering: .relaxed) > 0 else { return }
    var pending = [self]
    while let view = pending.popLast() {
      if !view.runningWork.isEmpty {
        // Taken out before cancelling: a task's cancellation handler runs inside
        // `cancel()` and may end its work there (`finishWork`), which then finds it gone
        // instead of counting the view out a second time.
        let tasks = view.runningWork
        view.runningWork = [:]
        _ = Self.viewsWithWork.subtract(1, ordering: .relaxed)
        for task in tasks.values { task.cancel() }
      }
      pending.append(contentsOf: view.children)
    }
  }
}

extension ErrorHandler {
  /// Runs async work, `errorHandler { try await … }`: the work starts at once in a task
  /// of its own; an error it throws goes to the nearest boundary above the view where it
  /// started, when it happens. Removing that view from the tree (or an ancestor of it)
  /// cancels the work, and a cancelled task's `CancellationError` raises no alert.
  ///
  /// `body` runs where its own isolation says (a `@MainActor` closure on the main actor).
  /// Reaching the tree from it goes through ``View/treeLock`` as from any thread.
  /// - Returns: The task, to await or cancel; nil if the origin view is gone.
  @discardableResult
  public func callAsFunction(
    _ body: sending @escaping @isolated(any) () async throws -> Void
  ) -> Task<Void, Never>? {
    guard let origin = routingOrigin else { return nil }
    return Self.start(UncheckedWork(body: body), from: origin)
  }

  /// Starts `work` in a task tracked by `origin`; a boundary that offers "Try again"
  /// starts it once more, from the same view.
  private static func start(_ work: UncheckedWork, from origin: View) -> Task<Void, Never>? {
    let reference = ViewReference(view: origin)
    let retry = RetryableWork(action: { view in _ = start(work, from: view) })
    var started: Task<Void, Never>?
    View.treeLock.withLock {
      origin.track { finished in
        let task = Task {
          do {
            try await work.body()
          } catch is CancellationError where Task.isCancelled {
            // Cancelled with its view: nothing to show.
          } catch {
            View.treeLock.withLock {
              if let view = reference.view { ErrorRouter.route(error, from: view, retry: retry) }
            }
          }
          finished()
        }
        started = task
        return task
      }
    }
    return started
  }
}

/// The body of async work, moved into its task once (it was `sending`).
private struct UncheckedWork: @unchecked Sendable {
  let body: @isolated(any) () async throws -> Void
}
