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

  /// Presents an alert for `error`, or counts it if the same alert is already pending.
  ///
  /// Alerts match when title, message and origin path are equal; the first
  /// error is kept. The alert becomes current before the presenter is called,
  /// so errors raised by the presenter queue instead of recursing.
  func enqueueAlert(
    for error: any Error, origin: View, configuration: BoundaryConfiguration, isUnhandled: Bool
  ) {
    let message = Alert.message(for: error)
    let title = configuration.title
    if let index = pendingAlerts.firstIndex(where: {
      $0.message == message && $0.title == title && origin.hasPath($0.path)
    }) {
      pendingAlerts[index].count += 1
      environment.alertPresenter?.countChanged(pendingAlerts[index], boundary: self)
      return
    }
    guard pendingAlerts.count < Self.alertQueueLimit else {
      droppedAlertCount += 1
      return
    }
    let path = origin.path
    // The view the error came from pays, so a script's alerts count against its memory
    // limit wherever they are shown (with a small overdraft: its memory error is shown).
    let account = origin.payingAccount
    let cost = Alert.memoryCost(title: title, message: message, path: path)
    if let account, !account.charge(cost, overdraft: true) {
      droppedAlertCount += 1
      return
    }
    var alert = Alert(
      title: title, message: message, dismissLabel: configuration.dismissLabel, path: path,
      isUnhandled: isUnhandled, error: error)
    alert.charge = account.map { ($0, cost) }
    pendingAlerts.append(alert)
    if pendingAlerts.count == 1 {
      environment.alertPresenter?.present(alert, boundary: self)
    }
  }
}

extension View {
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
