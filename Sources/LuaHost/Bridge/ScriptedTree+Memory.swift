import Lua
import ViewTree

/// A script's Lua memory account, as the view tree's ``MemoryAccount``.
final class ScriptMemoryAccount: MemoryAccount {
  let lua: LuaMemoryAccount
  init(_ lua: LuaMemoryAccount) { self.lua = lua }
  func charge(_ bytes: Int, overdraft: Bool) -> Bool { lua.charge(bytes, overdraft: overdraft) }
  func release(_ bytes: Int) { lua.release(bytes) }
}

/// A value Swift keeps for a script (captured by a function the script holds), charged to
/// the script's memory for as long as it lives.
final class Charged<Value> {
  let value: Value
  private let cost: Int
  private let account: LuaMemoryAccount

  /// Charges `cost` bytes for `value` (see ``ScriptedTree/chargeKept(_:)``).
  /// - Throws: a `.memory` `LuaError` if they do not fit under the script's limit.
  init(_ value: Value, cost: Int, tree: ScriptedTree) throws {
    try tree.chargeKept(cost)
    self.value = value
    self.cost = cost
    account = tree.memoryAccount.lua
  }

  deinit { account.release(cost) }
}

extension ScriptedTree {
  /// The error a refused charge raises: the script's own memory error.
  static var outOfMemory: LuaError { LuaError(kind: .memory, message: "not enough memory") }

  /// What one piece of work in flight costs in Swift (a task, its closure, its entry in the
  /// view's work), charged while it is pending: a script cannot make unbounded timers or
  /// waiting actions outside its memory limit. (A waiting action's Lua thread is Lua's.)
  static let pendingWorkCost = 4096

  /// Charges `bytes` that a Lua value keeps alive in Swift (a timer handle, a kept alert),
  /// given back when the value is collected. When they do not fit, the dead ones may be
  /// what fills the account: Lua's collector does not see Swift memory, so, as Lua's
  /// allocator does before it fails, this collects once and tries again.
  /// - Throws: a `.memory` `LuaError` if the bytes still do not fit.
  func chargeKept(_ bytes: Int) throws {
    let account = memoryAccount.lua
    if account.charge(bytes, overdraft: false) { return }
    // Under the state's lock with the tree lock set aside (a caller may hold either).
    try? callingLua { lua.collectGarbage() }
    guard account.charge(bytes, overdraft: false) else { throw Self.outOfMemory }
  }

  /// Charges one piece of work in flight; the returned function gives it back.
  /// - Throws: a `.memory` `LuaError` if it does not fit under the script's limit.
  func chargePendingWork() throws -> @Sendable () -> Void {
    let account = memoryAccount.lua
    try chargeKept(Self.pendingWorkCost)
    return { account.release(Self.pendingWorkCost) }
  }

  /// Bytes a Lua value costs when Swift keeps it: a string's bytes (Swift holds a copy),
  /// else a reference's worth (the value itself lives, and is counted, in Lua).
  static func memoryCost(of value: LuaValue) -> Int {
    if case .string(let string) = value { return string.bytes.count + 32 }
    return 32
  }

  /// What a view made from Lua costs for itself: the object and its strings.
  static func memoryCost(of view: View) -> Int {
    var cost = View.baseMemoryCost + view.id.utf8.count
    for (key, value) in view.properties {
      cost += key.utf8.count + (value.stringValue?.utf8.count ?? 8)
    }
    if let boundary = view.boundary {
      cost += boundary.title.utf8.count + boundary.dismissLabel.utf8.count
      cost += boundary.retryLabel.utf8.count + boundary.resetLabel.utf8.count
      cost += boundary.resetKeys.reduce(0) { $0 + $1.utf8.count + 16 }
    }
    return cost
  }

  /// Gives `view` this script's account and charges what it holds.
  /// - Throws: a `.memory` `LuaError` if that does not fit under the script's limit.
  func charge(_ view: View) throws {
    view.memoryAccount = memoryAccount
    guard view.adjustCharge(by: Self.memoryCost(of: view)) else { throw Self.outOfMemory }
  }

  /// Charges `view` for replacing something of `old` bytes with something of `new` bytes.
  /// A view Swift made (with no account yet) is charged to this script: whoever stores
  /// something pays for it.
  /// - Throws: a `.memory` `LuaError` if the growth does not fit; nothing is charged then.
  func recharge(_ view: View, from old: Int, to new: Int) throws {
    if view.memoryAccount == nil { view.memoryAccount = memoryAccount }
    guard view.adjustCharge(by: new - old) else { throw Self.outOfMemory }
  }

  /// Writes a component's property, and charges the script for what the view's own
  /// properties grew by (a setter that stores the script's text in `view.properties`
  /// would otherwise keep it for free). If the growth does not fit, the properties are put
  /// back as they were and the script gets a memory error. What a component keeps in its
  /// own model is its author's to bound.
  func set(_ name: String, of view: View, by component: ScriptedComponent, to value: LuaValue)
    throws
  {
    let before = view.properties
    let oldCost = Self.memoryCost(of: view)
    try component.set(name, of: view, to: value)
    let newCost = Self.memoryCost(of: view)
    guard newCost != oldCost else { return }
    do {
      try recharge(view, from: oldCost, to: newCost)
    } catch {
      view.properties = before
      throw error
    }
  }

  /// `view.setValue(text)`, charged to the view's account first.
  /// - Throws: a `.memory` `LuaError` if the new value does not fit.
  func setValue(of view: View, to text: String) throws -> Bool {
    try recharge(view, from: view.value.utf8.count, to: text.utf8.count)
    return view.setValue(text)
  }
}
