import Lua
import Testing

/// Swift memory that Lua values keep (charged to the state's ``LuaMemoryAccount``) counts
/// toward the collector's pace as Lua's own allocations do. Garbage that is mostly Swift
/// memory (a userdata of a few dozen bytes in front of kilobytes in Swift) was collected at
/// the pace of its Lua bytes alone: with no memory limit it grew without bound, and under a
/// limit it grew until the limit forced a collection (a ticking plugin: hundreds of MB).
@Suite(.timeLimit(.minutes(30))) struct CollectorPaceTests {
  /// A Swift object that a userdata keeps, charged while it lives.
  final class Payload {
    static let cost = 4096
    let account: LuaMemoryAccount
    init(account: LuaMemoryAccount) {
      self.account = account
      _ = account.charge(Self.cost)
    }
    deinit { account.release(Self.cost) }
  }

  /// A state with no memory limit (nothing forces a collection) and `make()`, which returns
  /// a userdata in front of a charged `Payload`.
  func state() throws -> LuaState {
    let lua = try LuaState()
    let account = try lua.memoryAccount()
    try lua.register("make") { [unowned lua] () throws -> LuaValue in
      try lua.userdata(Payload(account: account))
    }
    return lua
  }

  @Test func garbageThatKeepsSwiftMemoryIsCollectedAsItIsMade() throws {
    let lua = try state()
    defer { lua.close() }
    try lua.run("for i = 1, 20000 do make() end")
    // 20,000 payloads are 80 MB; the collector keeps up with them.
    #expect(lua.memoryInUse < 8 << 20, "\(lua.memoryInUse) bytes in use")
  }

  @Test func aStoppedCollectorStaysStopped() throws {
    let lua = try state()
    defer { lua.close() }
    let running = try lua.run(
      "collectgarbage('stop') for i = 1, 2000 do make() end return collectgarbage('isrunning')")
    #expect(running == [false])
    // Nothing was collected: every payload is still charged.
    #expect(lua.memoryInUse >= 2000 * Payload.cost)
    lua.collectGarbage()
    #expect(lua.memoryInUse < 2000 * Payload.cost)
  }
}
