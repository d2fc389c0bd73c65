import Lua
import LuaHost
import ViewTree

/// Fuzz target `tree`: decodes bytes into view-tree operations and Lua actions (add,
/// remove, move, tap from Swift and from Lua, environment writes, nested boundaries, actions
/// and `on_error` handlers that raise every kind of error or decline, transform, fail, loop;
/// alerts dismissed, their buttons pressed ("Try again" included), boundaries reset)
/// and checks after each one that no error was lost or counted twice. One operation calls
/// any `ui` constructor, method or property with hostile values (`math.mininteger`, `nan`,
/// `inf`, huge strings, wrong types): the host must answer with an error, never crash.
public final class TreeFuzzer {
  let root = View.window(id: "root")
  let tree: ScriptedTree
  var lua: LuaState { tree.lua }
  let helpers: LuaTable
  /// Every view made so far, the root first; alerts are counted over all of them.
  var views: [View]
  /// Set once an action or handler that routes nested errors was installed: from then on a
  /// failed tap must add at least one alert instead of exactly one.
  var nesting = false
  var violations: [String] = []
  var input: ByteReader

  /// Decodes and runs `bytes`; returns the broken promises (empty when all held).
  public static func run(_ bytes: [UInt8]) -> [String] {
    do {
      let fuzzer = try TreeFuzzer(bytes)
      defer { fuzzer.lua.close() }
      try fuzzer.tree.withState { _ in fuzzer.runAll() }
      return fuzzer.violations
    } catch {
      return ["cannot set up the tree: \(error)"]
    }
  }

  init(_ bytes: [UInt8]) throws {
    input = ByteReader(bytes)
    root.environment.alertPresenter = RecordingAlertPresenter()
    // The set-up runs without the 20 ms deadline: it is the harness, not the input, and
    // under ASan on a loaded machine it once took longer (CI failed in set-up, not in a
    // step; the input replayed cleanly). The deadline applies from the first step on.
    var sandbox = ChunkFuzzer.sandbox
    sandbox.timeout = nil
    let lua = try LuaState(sandbox: sandbox)
    try ChunkFuzzer.registerHostFunctions(lua)
    tree = try ScriptedTree(lua: lua, root: root)
    helpers = try tree.withState { lua in
      try LuaTable(luaValue: lua.load(Self.prelude, name: "=luahost:prelude").call().first ?? .nil)
    }
    lua.timeout = ChunkFuzzer.sandbox.timeout
    views = [root]
  }

  /// The number of alerts the tree holds: each pending alert's count plus the dropped ones.
  var alertMass: Int {
    views.reduce(0) { total, view in
      total + view.droppedAlertCount
        + ([view.alert].compactMap { $0 } + view.queuedAlerts)
        .reduce(0) { $0 + $1.count }
    }
  }

  func runAll() {
    var steps = 0
    while let op = input.next(), steps < 200 {
      steps += 1
      step(op)
      if lua.stackTop != 0 { violations.append("op \(op): stack not balanced: \(lua.stackTop)") }
      if !violations.isEmpty { return }
    }
    // The state must still work, whatever happened (not under the fuzz deadline: a thread
    // descheduled for longer than it would fail a state that works).
    lua.timeout = nil
    if (try? lua.run("return 1 + 1", name: "=after")) != [2],
      (try? lua.run("collectgarbage('count')", name: "=after")) == nil
    {
      violations.append("state unusable afterwards")
    }
  }

  /// Calls helper `name`; a failure must be a `LuaError` of a kind a script can cause.
  @discardableResult
  func call(_ name: String, _ arguments: LuaValue...) -> [LuaValue]? {
    do {
      return try LuaFunction(luaValue: helpers.get(name)).call(arguments: arguments)
    } catch let error as LuaError {
      violations += ChunkFuzzer.check(error).filter { !$0.hasPrefix("a Swift error came back") }
      if error.kind == .swift, error.underlying == nil {
        violations.append("\(name): a Swift error lost its payload")
      }
    } catch {
      violations.append("\(name): a non-LuaError escaped: \(error)")
    }
    return nil
  }

  func view() -> View { views[Int(input.byte()) % views.count] }
  func userdata(_ view: View) -> LuaValue { (try? lua.userdata(view)) ?? .nil }
  func small(_ count: Int) -> Int { Int(input.byte()) % count }

  /// Checks that an operation that failed `failures` times added that many alerts.
  func expectAlerts(_ op: String, before: Int, failures: Int) {
    let added = alertMass - before
    if nesting ? added < failures : added != failures {
      violations.append("\(op): \(failures) failure(s) but \(added) alert(s)")
    }
  }

  func step(_ op: UInt8) {
    switch op % 16 {
    case 0, 1:
      let parent = view()
      let id = "v\(views.count)"
      guard let made = call("make", .integer(Int64(small(7))), .string(LuaString(id))),
        let child = try? ScriptedTreeValue.view(made.first)
      else { return }
      views.append(child)
      let index: LuaValue = op % 2 == 0 ? .nil : .integer(Int64(small(4)))
      call("add", userdata(parent), userdata(child), index)
    case 2: call("remove", userdata(view()))
    case 3:
      let moved = view()
      let index: LuaValue = input.byte() < 128 ? .nil : .integer(Int64(small(4)))
      call("move", userdata(moved), userdata(view()), index)
    case 4:
      let tapped = view()
      let before = alertMass
      let ran = tapped.onTap != nil
      let succeeded = tapped.tap()
      expectAlerts("tap", before: before, failures: ran && !succeeded ? 1 : 0)
    case 5:
      let tapped = view()
      let before = alertMass
      let ran = tapped.onTap != nil
      if let result = call("tap", userdata(tapped)) {
        expectAlerts("lua tap", before: before, failures: ran && result == [false] ? 1 : 0)
      }
    case 6:
      let keys = ["theme", "x", "error_handler"]
      let values: [LuaValue] = [.nil, "dark", .integer(3), .boolean(true)]
      call("setenv", userdata(view()), .string(LuaString(keys[small(3)])), values[small(4)])
    case 7, 8:
      let target = view()
      let action = small(Self.actionCount)
      if Self.nestingActions.contains(action) { nesting = true }
      call(op == 7 ? "settap" : "setchange", userdata(target), .integer(Int64(action)))
    case 9:
      let handler = small(Self.handlerCount)
      if Self.nestingHandlers.contains(handler) { nesting = true }
      call("seterror", userdata(view()), .integer(Int64(handler)))
    case 10:
      let code = small(4)
      view().onTap = { _ in throw HostError(code: code) }
    case 11:
      let action = small(Self.actionCount)
      if Self.nestingActions.contains(action) { nesting = true }
      let before = alertMass
      if let result = call("route", userdata(view()), .integer(Int64(action))) {
        expectAlerts("error_handler", before: before, failures: result == [false] ? 1 : 0)
      }
    case 12:
      // Close an alert: dismiss, dismiss all, press a button (maybe "Try again", which
      // runs the failed work again), or reset the boundary.
      let target = view()
      switch input.byte() % 8 {
      case 0...3: target.dismiss()
      case 4: target.dismissAll()
      case 5, 6: target.choose(at: small(4))
      default: target.reset()
      }
    case 13:
      let target = view()
      let before = alertMass
      let ran = target.onChange != nil && target.value != "v\(before)"
      if let result = call("setvalue", userdata(target), .string(LuaString("v\(before)"))) {
        expectAlerts("set_value", before: before, failures: ran && result == [false] ? 1 : 0)
      }
    case 14:
      // Nested boundaries, each with a handler of its own.
      var parent = view()
      for _ in 0..<(1 + small(6)) {
        let boundary = View.boundary(id: "b\(views.count)")
        // Some retry, some rebuild a button on reset, some reset when `theme` changes.
        let flags = input.byte()
        boundary.boundary?.offersRetry = flags & 1 != 0
        if flags & 2 != 0 {
          boundary.boundary?.onReset = { view in try view.add(View.button("Fresh", id: "fresh")) }
        }
        if flags & 4 != 0 { boundary.boundary?.resetKeys = ["theme"] }
        views.append(boundary)
        _ = try? parent.add(boundary)
        let handler = small(Self.handlerCount + 1)
        if handler < Self.handlerCount {
          if Self.nestingHandlers.contains(handler) { nesting = true }
          call("seterror", userdata(boundary), .integer(Int64(handler)))
        }
        parent = boundary
      }
    default:
      if input.byte() < 128 {
        _ = call("inspect", userdata(view()))
      } else {
        let member = Int64(small(Self.memberCount))
        let first = Int64(small(Self.extremeCount))
        let second = Int64(small(Self.extremeCount))
        call("poke", userdata(view()), .integer(member), .integer(first), .integer(second))
      }
    }
  }
}

/// Reads the fuzzer's bytes; past the end it yields zeros.
struct ByteReader {
  let bytes: [UInt8]
  var offset = 0
  init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// The next byte, or nil at the end.
  mutating func next() -> UInt8? {
    guard offset < bytes.count else { return nil }
    defer { offset += 1 }
    return bytes[offset]
  }

  /// The next byte, or 0 at the end.
  mutating func byte() -> UInt8 { next() ?? 0 }
}

/// Reads views back out of Lua values.
enum ScriptedTreeValue {
  static func view(_ value: LuaValue?) throws -> View {
    guard case .userdata(let userdata)? = value, let view = userdata.object(as: View.self) else {
      throw HostError(code: -1)
    }
    return view
  }
}
