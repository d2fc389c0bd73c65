// MARK: - Running actions

extension View {
  /// Runs ``onTap``; an error it throws goes to the nearest error boundary.
  ///
  /// - Returns: `true` if an action ran and returned normally.
  @discardableResult
  public func tap() -> Bool {
    guard let action = onTap else { return false }
    return perform(action)
  }

  /// Stores `newValue` as ``value`` and, if it changed, runs ``onChange``.
  ///
  /// An error thrown by the action goes to the nearest error boundary; the
  /// new value stays stored.
  /// - Returns: `false` only if the on-change action threw.
  @discardableResult
  public func setValue(_ newValue: String) -> Bool {
    guard properties["value"] != .string(newValue) else { return true }
    properties["value"] = .string(newValue)
    guard let action = onChange else { return true }
    return perform(action)
  }

  /// Runs the handler of the event `name` (see ``eventHandlers``) with `values`; an error
  /// it throws goes to the nearest error boundary. App-defined views send their events
  /// this way: a slider sends `on_change` with its new value.
  ///
  /// - Returns: `true` if a handler ran and returned normally.
  @discardableResult
  public func send(_ name: String, _ values: [PropertyValue] = []) -> Bool {
    guard let handler = eventHandlers[name] else { return false }
    do {
      try ActingView.with(self) { try handler(self, values) }
      if parentBeforeRemoval != nil { parentBeforeRemoval = nil }
      return true
    } catch {
      let continuation = continuationAfterRemoval()
      ErrorRouter.route(
        error, from: self, retry: RetryableWork(action: { view in try handler(view, values) }),
        continuingAt: continuation)
      return false
    }
  }

  /// The ``model`` as a `Model`, if it is one.
  public func model<Model: AnyObject>(as type: Model.Type) -> Model? { model as? Model }

  /// Runs `action` with this view; an error it throws goes to the nearest error boundary.
  ///
  /// This is the hot path behind ``tap()``: no allocation unless the action throws. A
  /// boundary that offers "Try again" runs `action` again when it is chosen.
  /// - Returns: `true` if `action` returned normally.
  @discardableResult
  public func perform(_ action: @escaping ViewAction) -> Bool {
    do {
      try ActingView.with(self) { try action(self) }
      if parentBeforeRemoval != nil { parentBeforeRemoval = nil }
      return true
    } catch {
      // The action may have removed this view (or an ancestor): the error then continues
      // where the view was, so a script cannot detach its way out of its boundary.
      let continuation = continuationAfterRemoval()
      ErrorRouter.route(
        error, from: self, retry: RetryableWork(action: action), continuingAt: continuation)
      return false
    }
  }

  /// Whether this view's running action removed it (or an ancestor) from its tree and did
  /// not put it back (see `parentBeforeRemoval`): the work the action would go on with is
  /// then to be cancelled, as removing a view cancels its work, which did not exist yet as
  /// the view was removed. Read it before the action ends. Call holding ``treeLock``.
  package var isRemovedByItsAction: Bool {
    guard let former = parentBeforeRemoval else { return false }
    return former.root !== root
  }

  /// Runs `body` as an action of this view, as ``perform(_:)`` runs one, so that a removal
  /// of the view (or an ancestor) during it is noted for ``isRemovedByItsAction``: for
  /// actions that do not come through `perform` (a timer's callback, an alert's button).
  /// Call holding ``treeLock``.
  package func runAsAction<T>(_ body: () throws -> T) rethrows -> T {
    if ActingView.current === self { return try body() }  // `perform` clears the note
    defer { if parentBeforeRemoval != nil { parentBeforeRemoval = nil } }
    return try ActingView.with(self) { try body() }
  }

  /// Where an error of this view's action continues past the top of its chain: the
  /// parent it (or an ancestor) had before the action removed it, unless the action put
  /// it back into that same tree. Clears the note.
  func continuationAfterRemoval() -> View? {
    guard let former = parentBeforeRemoval else { return nil }
    parentBeforeRemoval = nil
    return former.root === root ? nil : former
  }
}
