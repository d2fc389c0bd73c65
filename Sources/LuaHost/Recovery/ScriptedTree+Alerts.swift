import Lua
import ViewTree

extension ScriptedTree {
  /// An alert of `boundary` as a Lua table: `title`, `message`, `dismiss`, `path`, `count`,
  /// `unhandled`, `actions` (the button labels, dismiss last), `chain` ("inner declined ·
  /// outer presented"), `handlers` (`{ boundary =, path =, decision = }` each), and, when
  /// known, `location`, `traceback`, `failure_reason`, `recovery_suggestion`. Its method
  /// `alert:choose(label or number)` presses a button while the alert is up; with
  /// `pressableWhenGone`, also after (a test harness's alert, taken off its boundary).
  package func table(_ alert: Alert, boundary: View, pressableWhenGone: Bool = false) throws
    -> LuaValue
  {
    let table = try lua.makeTable()
    func set(_ key: String, _ text: String?) throws {
      if let text { try table.set(key, .string(LuaString(text))) }
    }
    try set("title", alert.title)
    try set("message", alert.message)
    try set("dismiss", alert.dismissLabel)
    try set("path", alert.path)
    try table.set("count", .integer(Int64(alert.count)))
    try table.set("unhandled", .boolean(alert.isUnhandled))
    try set("location", alert.sourceLocation)
    try set("traceback", alert.traceback)
    try set("failure_reason", alert.failureReason)
    try set("recovery_suggestion", alert.recoverySuggestion)
    try table.set("actions", lua.value(alert.actions.map { LuaValue.string(LuaString($0.label)) }))
    try set("chain", alert.handlerChain.chainDescription)
    let steps = try alert.handlerChain.map { step -> LuaValue in
      let entry = try lua.makeTable()
      try entry.set("boundary", .string(LuaString(step.boundary)))
      try entry.set("path", .string(LuaString(step.path)))
      try entry.set("decision", .string(LuaString(step.decision.rawValue)))
      return .table(entry)
    }
    try table.set("handlers", lua.value(steps))
    try table.set(
      "choose", chooser(for: alert, of: boundary, pressableWhenGone: pressableWhenGone))
    return .table(table)
  }

  /// `alert:choose(label)` or `alert:choose(n)`: presses a button of `alert` (see
  /// ``View/choose(_:of:)``); returns what happened (`"dismissed"`, `"recovered"`,
  /// `"not_recovered"`, `"retried"`, `"reset"`).
  private func chooser(for alert: Alert, of boundary: View, pressableWhenGone: Bool) throws
    -> LuaValue
  {
    // The function keeps the alert (and its error) for as long as the script keeps it,
    // so the alert is charged to the script for that long, as a pending one is.
    let kept = try Charged(alert, cost: alert.memoryCost, tree: self)
    return try function { [weak boundary] tree, arguments in
      let alert = kept.value
      let choice = arguments.count > 1 ? arguments[1] : .nil
      let buttons = alert.actions.map { "'\($0.label)'" }.joined(separator: ", ")
      let result = try View.treeLock.withLock { () -> AlertChoice in
        guard let boundary else {
          throw LuaError(kind: .runtime, message: "alert:choose: the boundary is gone")
        }
        try tree.checkReach(boundary)
        // A button works while its alert is up (current or queued): once the alert was
        // dismissed, or its boundary reset, the kept alert runs nothing.
        guard pressableWhenGone || boundary.alerts.contains(where: { $0.isSame(as: alert) })
        else {
          throw LuaError(kind: .runtime, message: "alert:choose: the alert is no longer up")
        }
        let index: Int
        switch choice {
        case .string(let label):
          guard let found = alert.actions.firstIndex(where: { $0.label == label.description })
          else { return .notFound }
          index = found
        case .integer(let number) where number >= 1 && number <= alert.actions.count:
          index = Int(number) - 1
        default: return .notFound
        }
        try tree.checkMayPress(alert.actions[index], on: boundary)
        return boundary.choose(at: index, of: alert)
      }
      guard result != .notFound else {
        throw LuaError(
          kind: .runtime,
          message: "alert:choose: \(choice.isNil ? "no label given" : "no button \(choice)")"
            + " (its buttons: \(buttons))")
      }
      return [.string(LuaString(result.luaName))]
    }
  }

  /// Throws if this script may not press `action`: a sandboxed plugin (whose `ui.root` is
  /// not the top of its tree) presses only recovery actions it made itself; the app's own
  /// (a Swift error's recovery options, an app filter's) are for the user to choose.
  /// Resetting the panel itself (`ui.root`, whose Reset the host's policy gave) is the
  /// host's too: it restarts the plugin.
  func checkMayPress(_ action: AlertAction, on boundary: View) throws {
    guard root.parent != nil else { return }
    let hostsRecovery = action.role == .recovery && action.owner != ObjectIdentifier(self)
    let panelReset = action.role == .reset && boundary === root
    guard hostsRecovery || panelReset else { return }
    throw LuaError(
      kind: .runtime,
      message: "alert:choose: '\(action.label)' is the host's button; a plugin cannot press it")
  }

  /// The longest name `reset_keys` takes, in bytes.
  static let resetKeyLimit = 4096

  /// A boundary's configuration from a constructor's spec: `title`, `dismiss`, `retry`
  /// (and `retry_label`), `reset_label`, `reset_keys`. `on_error` and `on_reset` are set
  /// as handlers.
  func boundaryConfiguration(from spec: ComponentSpec) throws -> BoundaryConfiguration {
    var configuration = BoundaryConfiguration()
    if let title = try spec.get("title", as: String.self) { configuration.title = title }
    if let label = try spec.label("dismiss") { configuration.dismissLabel = label }
    configuration.offersRetry = try spec.get("retry", as: Bool.self) ?? false
    if let label = try spec.label("retry_label") { configuration.retryLabel = label }
    if let label = try spec.label("reset_label") { configuration.resetLabel = label }
    if case .table(let keys) = try spec["reset_keys"] {
      // Names, not data: a `Set` hashes its strings by Unicode's rules, about 70 ns a
      // character for text that is not in NFC (32 names of 1M characters took 2.3 s).
      let names = try Self.list(
        keys, atMost: 32, "reset_keys", maxStringBytes: Self.resetKeyLimit
      ).map { try String(luaValue: $0) }
      configuration.resetKeys = Set(names)
    }
    return configuration
  }

  /// Runs a boundary's Lua `on_reset(boundary)` after its children were removed; each view
  /// it returns is added to the boundary.
  func rebuild(_ boundary: View, with function: LuaFunction) throws {
    // The results become views inside the state's lock: they are Lua values of a state
    // that another thread (the plugin's own) may use as soon as the lock is released.
    let views = try callingLua {
      let results: [LuaValue]
      do {
        results = try function.call(value(boundary))
      } catch {
        throw presentable(error, origin: boundary)
      }
      return try results.filter { !$0.isNil }.map {
        try Self.view($0, argument: "on_reset result")
      }
    }
    try View.treeLock.withLock {
      try placeAll(views, in: boundary)
    }
  }
}

extension ScriptedTree {
  /// The entries of a Lua list, refused before any is copied into Swift when there are
  /// more than `limit` (one long string listed a million times must not become a million
  /// Swift copies), or when a string entry is longer than `maxStringBytes` (32 copies of a
  /// 25 MB string took six plugins to 9 GB before a 4 KB bound refused them).
  static func list(
    _ table: LuaTable, atMost limit: Int, _ what: String, maxStringBytes: Int = .max
  ) throws -> [LuaValue] {
    let count = try table.rawLength()
    guard count <= limit else {
      throw LuaError(kind: .runtime, message: "\(what): at most \(limit) entries, got \(count)")
    }
    var entries: [LuaValue] = []
    entries.reserveCapacity(count)
    try table.forEachRawArrayValue { entry in
      if let length = entry.stringByteCount(at: 1), length > maxStringBytes {
        throw LuaError(
          kind: .runtime, message: "\(what): an entry is at most \(maxStringBytes) bytes")
      }
      entries.append(entry[1])
    }
    return entries
  }
}

extension AlertChoice {
  /// How Lua names the outcome.
  var luaName: String {
    switch self {
    case .notFound: "not_found"
    case .dismissed: "dismissed"
    case .recovered: "recovered"
    case .notRecovered: "not_recovered"
    case .retried: "retried"
    case .reset: "reset"
    }
  }
}
