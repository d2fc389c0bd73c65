import Lua
import ViewTree

/// What `ui.error{ message =, title =, actions = }` makes: a Lua error value that carries
/// an alert's title and buttons. Raise it with `error(ui.error{ … })`.
///
/// Swift keeps copies of its strings, so they are charged to the script's memory while the
/// value lives; a value has at most ``AlertAction/limit`` actions.
final class ScriptedErrorValue {
  let message: String
  let title: String?
  let actions: [(label: String, function: LuaFunction)]
  private let account: ScriptMemoryAccount
  private let cost: Int

  init(
    message: String, title: String?, actions: [(label: String, function: LuaFunction)],
    account: ScriptMemoryAccount
  ) throws {
    cost =
      64 + message.utf8.count + (title?.utf8.count ?? 0)
      + actions.reduce(0) { $0 + $1.label.utf8.count + 32 }
    guard account.charge(cost, overdraft: false) else { throw ScriptedTree.outOfMemory }
    self.message = message
    self.title = title
    self.actions = actions
    self.account = account
  }

  deinit { account.release(cost) }
}

/// A Lua error whose value is a `ui.error`: the alert takes its title and actions. It
/// reads as the Lua error it wraps (message, location, traceback); `on_error` receives
/// the `ui.error` value.
public struct ScriptedAlertError: Error, AlertDetailing, CustomStringConvertible {
  /// The Lua error raised.
  public let luaError: LuaError
  /// The title the script asked for, if any.
  public let alertTitle: String?
  /// The script's actions, as alert buttons.
  public let alertActions: [AlertAction]
  let message: String

  /// The `ui.error`'s message.
  public var alertMessage: String { message }
  /// Where it was raised, if known.
  public var sourceLocation: String? { luaError.sourceLocation }
  /// The Lua traceback.
  public var tracebackText: String? { luaError.tracebackText }
  /// The message.
  public var description: String { message }
  /// The script whose state raised it.
  public var alertPayer: (any MemoryAccount)? { luaError.alertPayer }
}

extension ScriptedTree {
  /// Registers the `ui.error` type: fields `message` and `title`, and `tostring` gives
  /// the message.
  func registerErrorType() throws {
    try lua.register(ScriptedErrorValue.self, name: "UIError") { type in
      type.property("message", get: { .string(LuaString($0.message)) })
      type.property("title", get: { $0.title.map { .string(LuaString($0)) } ?? .nil })
      type.metamethod(.tostring) { arguments in
        guard case .userdata(let userdata)? = arguments.first,
          let value = userdata.object(as: ScriptedErrorValue.self)
        else { return ["ui.error"] }
        return [.string(LuaString(value.message))]
      }
    }
  }

  /// `ui.error{ message = "disk full", title = "Save", actions = { { "Free space", f } } }`.
  func makeErrorValue(_ spec: LuaValue) throws -> LuaValue {
    let spec = try ComponentSpec(spec, constructor: "error")
    guard let message = try spec.get("message", as: String.self) else {
      throw LuaError(kind: .runtime, message: "ui.error: message (a string) expected")
    }
    var actions: [(label: String, function: LuaFunction)] = []
    if case .table(let list) = try spec["actions"] {
      actions = try Self.actionPairs(list, "ui.error")
    } else if try !spec["actions"].isNil {
      throw LuaError(kind: .runtime, message: "ui.error: actions must be a list")
    }
    let value = try ScriptedErrorValue(
      message: message, title: spec.get("title", as: String.self), actions: actions,
      account: memoryAccount)
    return try lua.userdata(value)
  }

  /// `error` as an alert should show it: a Lua error raised with a `ui.error` value
  /// becomes a ``ScriptedAlertError``, whose actions run their functions with `origin` as
  /// the view they came from. Call holding the state's lock.
  func presentable(_ error: any Error, origin: View) -> any Error {
    guard let luaError = error as? LuaError, case .userdata(let userdata) = luaError.value,
      let value = userdata.object(as: ScriptedErrorValue.self)
    else { return error }
    return ScriptedAlertError(
      luaError: luaError, alertTitle: value.title,
      alertActions: value.actions.map {
        action(label: $0.label, function: $0.function, origin: origin)
      },
      message: value.message)
  }

  /// The most bytes of an action's label read from Lua: far more than the
  /// `AlertAction.labelLimit` characters a label keeps.
  static let labelBytesRead = 4096

  /// A list of `{ label, function }` pairs (at most ``AlertAction/limit``), labels clipped:
  /// the actions of a `ui.error` and those `on_error` offers. `what` names the caller.
  static func actionPairs(_ list: LuaTable, _ what: String) throws
    -> [(label: String, function: LuaFunction)]
  {
    try Self.list(list, atMost: AlertAction.limit, "\(what): actions").map { entry in
      guard case .table(let pair) = entry, case .function(let function) = try pair.get(2) else {
        throw LuaError(kind: .runtime, message: "\(what): each action is { label, function }")
      }
      // Only the label's start is ever shown: read cut (raw), not copied whole first.
      let label = try pair.rawGet(.integer(1), cuttingStringsAfter: Self.labelBytesRead)
      return (AlertAction.clip(try String(luaValue: label)), function)
    }
  }

  /// A button that runs a Lua function as an action of `origin` (so it may wait, and its
  /// error goes to `origin`'s boundary). It recovers unless the function raises an error.
  func action(label: String, function: LuaFunction, origin: View) -> AlertAction {
    AlertAction(label, owner: ObjectIdentifier(self)) { [weak self, weak origin] in
      guard let self, let origin else { return false }
      try origin.runAsAction { try self.runAction(function, origin: origin) }
      return true
    }
  }
}
