import Synchronization

/// What choosing a button of an alert did.
public enum AlertChoice: Sendable, Equatable {
  /// There is no such alert, or it has no button of that label or position.
  case notFound
  /// The alert was dismissed (its dismiss button).
  case dismissed
  /// A recovery action ran and recovered: the alert was dismissed.
  case recovered
  /// A recovery action ran and did not recover, or threw: the alert stays up (an error
  /// the action threw has an alert of its own).
  case notRecovered
  /// The alert was dismissed and the failed work ran again.
  case retried
  /// The alert was dismissed and the boundary was reset.
  case reset
}

// MARK: - Choosing an action

extension View {
  /// Chooses the button labelled `label` of `alert` (by default this boundary's current
  /// alert).
  ///
  /// Every button but a failing recovery action dismisses the alert first, if it is still
  /// pending; then "Try again" runs the failed work again (a new failure of the same kind
  /// shows the alert again, counted ×N), "Reset" resets the boundary (``reset()``), and a
  /// recovery action runs its work. An alert no longer pending (a test harness's, say)
  /// still runs its buttons' work.
  @discardableResult
  public func choose(_ label: String, of alert: Alert? = nil) -> AlertChoice {
    View.treeLock.withLock {
      guard let alert = alert ?? self.alert,
        let action = alert.actions.first(where: { $0.label == label })
      else { return .notFound }
      return run(action, of: alert)
    }
  }

  /// Chooses the button at `index` (from 0) of `alert` (by default the current alert).
  @discardableResult
  public func choose(at index: Int, of alert: Alert? = nil) -> AlertChoice {
    View.treeLock.withLock {
      guard let alert = alert ?? self.alert, alert.actions.indices.contains(index) else {
        return .notFound
      }
      return run(alert.actions[index], of: alert)
    }
  }

  private func run(_ action: AlertAction, of alert: Alert) -> AlertChoice {
    switch action.role {
    case .dismiss:
      withdraw(alert)
      return .dismissed
    case .recovery:
      do {
        guard try action.perform?() ?? false else { return .notRecovered }
      } catch {
        ErrorRouter.route(error, from: self)
        return .notRecovered
      }
      withdraw(alert)
      return .recovered
    case .retry:
      withdraw(alert)
      guard let retry = alert.retry, retry.origin != nil || !retry.needsOrigin else {
        return .retried  // the view whose action failed is gone: nothing to run
      }
      let origin = retry.origin ?? self
      retriedAlert = (alert.title, alert.message, alert.path, alert.count)
      do {
        try retry.run(origin)
        // It worked (or went on in the background, whose failure may still continue
        // the count).
        if !origin.hasRunningWork { retriedAlert = nil }
      } catch {
        ErrorRouter.route(error, from: origin, retry: retry)
      }
      return .retried
    case .reset:
      reset()
      return .reset
    }
  }

  /// Dismisses `alert` if it is still pending here (current or queued).
  private func withdraw(_ alert: Alert) {
    guard let index = pendingAlerts.firstIndex(where: { $0.isSame(as: alert) }) else { return }
    if index == 0 {
      dismiss()
    } else {
      let removed = pendingAlerts.remove(at: index)
      removed.releaseCharge()
      environment.alertPresenter?.dismissed(removed, boundary: self)
    }
  }

  /// Resets this boundary: dismisses its alerts, and if it has
  /// ``BoundaryConfiguration/onReset``, removes its children (cancelling their work) and
  /// runs `onReset` to rebuild them. An error `onReset` throws goes up from the parent.
  public func reset() {
    View.treeLock.withLock {
      dismissAll()
      retriedAlert = nil
      guard let onReset = boundary?.onReset else { return }
      removeAllChildren()
      do {
        try onReset(self)
      } catch {
        ErrorRouter.route(error, from: parent ?? self)
      }
    }
  }
}

// MARK: - Reset keys

extension View {
  /// How many views are boundaries with reset keys, so that setting a named environment
  /// value costs nothing extra while there are none.
  static let boundariesWithResetKeys = Atomic<Int>(0)

  /// Whether two environment values are known to be equal (both absent, or equal as
  /// `AnyHashable`).
  static func isSameValue(_ a: Any?, _ b: Any?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (let a as AnyHashable, let b as AnyHashable): a == b
    default: false
    }
  }

  /// Resets the boundaries in this view's subtree that name `name` among their reset keys,
  /// see the value set here and show an alert. Called after the value changed.
  func namedValueChanged(_ name: String) {
    // By bytes, hashed once: see `ByteName`.
    let key = ByteName(name)
    var resets: [View] = []
    var pending = [self]
    while let view = pending.popLast() {
      if view.isPresented,
        view.boundary?.resetKeys.contains(where: { $0.hasSameBytes(as: name) }) == true
      {
        resets.append(view)
      }
      // A view below that sets the name itself hides this value from its subtree.
      pending.append(contentsOf: view.children.filter { $0.namedEnvironment[key] == nil })
    }
    for view in resets { view.reset() }
  }
}
