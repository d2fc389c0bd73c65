#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// MARK: - Presenting alerts

extension View {
  /// The most alerts a view keeps; further distinct alerts are counted in ``droppedAlertCount``.
  public static let alertQueueLimit = 100

  /// The alert being shown, if any. Boundaries and roots present alerts.
  public var alert: Alert? { pendingAlerts.first }

  /// Whether an alert is being shown.
  public var isPresented: Bool { !pendingAlerts.isEmpty }

  /// Every pending alert: the current one first, then the queued ones.
  public var alerts: [Alert] { pendingAlerts }

  /// The alerts waiting behind the current one, oldest first.
  public var queuedAlerts: [Alert] { Array(pendingAlerts.dropFirst()) }

  /// Dismisses the current alert; the next queued alert, if any, becomes current.
  ///
  /// - Returns: The dismissed alert, or `nil` if none was shown.
  @discardableResult
  public func dismiss() -> Alert? {
    guard !pendingAlerts.isEmpty else { return nil }
    let dismissed = pendingAlerts.removeFirst()
    dismissed.releaseCharge()
    let presenter = environment.alertPresenter
    presenter?.dismissed(dismissed, boundary: self)
    if let next = pendingAlerts.first {
      presenter?.present(next, boundary: self)
    }
    return dismissed
  }

  /// Dismisses the current alert and drops all queued ones.
  public func dismissAll() {
    while dismiss() != nil {}
  }

  /// Presents an alert for `error`, or counts it if the same alert is already pending,
  /// and logs it (``EnvironmentValues/errorLog``).
  ///
  /// Alerts match when title, message and origin path are equal; the first
  /// error is kept. The alert becomes current before the presenter is called,
  /// so errors raised by the presenter queue instead of recursing.
  func enqueueAlert(for reported: any Error, context: AlertContext) {
    var error = reported
    var (message, asked) = Alert.texts(for: error)
    let title = asked ?? context.configuration.title
    let origin = context.origin
    defer { log(reported, message: message, context: context) }
    // Counts the error on an equal alert already pending, if there is one.
    func countedAsPending(_ message: String) -> Bool {
      guard
        let index = pendingAlerts.firstIndex(where: {
          // By bytes (see `ByteName`): every pending alert is compared with each new one.
          $0.message.hasSameBytes(as: message) && $0.title.hasSameBytes(as: title)
            && origin.hasPath($0.path)
        })
      else { return false }
      pendingAlerts[index].count += 1
      environment.alertPresenter?.countChanged(pendingAlerts[index], boundary: self)
      return true
    }
    if countedAsPending(message) { return }
    guard pendingAlerts.count < Self.alertQueueLimit else {
      droppedAlertCount += 1
      return
    }
    let path = origin.path
    // Only a boundary that offers "Try again" keeps the work (and the view, weakly).
    var retry = context.configuration.offersRetry ? context.retry : nil
    retry?.origin = origin
    let actions = Self.actions(for: error, context: context, canRetry: retry != nil)
    // The view the error came from pays, so a script's alerts count against its memory
    // limit wherever they are shown (with a small overdraft: its memory error is shown);
    // at a view the host made, the script whose error it is.
    let account = origin.payingAccount ?? (error as? any AlertDetailing)?.alertPayer
    let chain = context.chain.steps
    let chainCost = chain.reduce(0) { $0 + $1.path.utf8.count + $1.boundary.utf8.count + 32 }
    func charge(for message: String) -> Int {
      Alert.memoryCost(title: title, message: message, path: path, actions: actions) + chainCost
    }
    var cost = charge(for: message)
    if let account, !account.charge(cost, overdraft: true) {
      // The limit cannot hold the whole message: the alert still comes, with its message
      // cut, so that no error vanishes (a 20 MB message in a 64 MB plugin did).
      message = Alert.messageCutForMemory(message)
      if countedAsPending(message) { return }  // the same error, cut before
      cost = charge(for: message)
      guard account.charge(cost, overdraft: true) else {
        droppedAlertCount += 1
        return
      }
      // The error keeps its own copy of the text (and the script's error value): cut too,
      // or each alert would keep the whole message unpaid for.
      if let detailed = error as? any AlertDetailing {
        error = detailed.cutForMemory(Alert.messageCutForMemory)
      }
    }
    var alert = Alert(
      title: title, message: message, dismissLabel: context.configuration.dismissLabel,
      path: path, isUnhandled: context.isUnhandled, error: error, actions: actions,
      handlerChain: chain)
    alert.retry = retry
    alert.charge = account.map { ($0, cost) }
    if let retried = retriedAlert, retried.title.hasSameBytes(as: title),
      retried.message.hasSameBytes(as: message), retried.path.hasSameBytes(as: path)
    {
      alert.count = retried.count + 1
      retriedAlert = nil
    }
    pendingAlerts.append(alert)
    if pendingAlerts.count == 1 {
      environment.alertPresenter?.present(alert, boundary: self)
    } else {
      environment.alertPresenter?.queued(alert, boundary: self)
    }
  }

  /// The buttons of an alert for `error`: the error's recovery options and own actions,
  /// the filter's, "Try again", "Reset", and the dismiss button last.
  private static func actions(for error: any Error, context: AlertContext, canRetry: Bool)
    -> [AlertAction]
  {
    let configuration = context.configuration
    let own =
      Alert.recoveryActions(for: error) + ((error as? any AlertDetailing)?.alertActions ?? [])
    var actions = (own + context.offered).prefix(AlertAction.limit).map { action in
      action.label.count > AlertAction.labelLimit || action.label.contains(where: \.isNewline)
        ? action.relabeled(AlertAction.clip(action.label)) : action
    }
    if configuration.offersRetry && canRetry {
      actions.append(AlertAction(configuration.retryLabel, role: .retry))
    }
    if configuration.onReset != nil {
      actions.append(AlertAction(configuration.resetLabel, role: .reset))
    }
    actions.append(AlertAction(configuration.dismissLabel, role: .dismiss))
    return actions
  }

  /// Hands the routed error to the error log of this (the presenting) view, if it has one.
  private func log(_ error: any Error, message: String, context: AlertContext) {
    guard ErrorLogKey.wasEverSet.load(ordering: .relaxed), let log = environment.errorLog
    else { return }
    log(
      ErrorLogEntry(
        time: Date(), error: error, message: message,
        sourceLocation: Alert.sourceLocation(of: error), originPath: context.origin.path,
        boundaryPath: path, handlerChain: context.chain.steps, isUnhandled: context.isUnhandled,
        owner: context.origin.owner))
  }
}

extension View {
  /// The ``BoundaryConfiguration/owner`` of this view's nearest boundary (itself included)
  /// that has one.
  var owner: String? {
    var node: View? = self
    while let view = node {
      if let owner = view.boundary?.owner { return owner }
      node = view.parent
    }
    return nil
  }

  /// The account of this view or of its nearest ancestor that has one.
  var payingAccount: (any MemoryAccount)? {
    var node: View? = self
    while let view = node {
      if let account = view.memoryAccount { return account }
      node = view.parent
    }
    return nil
  }
}

extension Alert {
  /// The longest part of a message kept when the payer's memory limit cannot hold it whole.
  public static let messageKeptOverTheLimit = 1024

  /// `message` cut to its first ``messageKeptOverTheLimit`` bytes (at the end of a
  /// Unicode scalar), with a note of what was not kept; the message itself when it fits.
  public static func messageCutForMemory(_ message: String) -> String {
    message.clipped(toBytes: messageKeptOverTheLimit) {
      "… (\($0) more bytes not kept: over the memory limit)"
    }
  }
}
