import Foundation
import Lua
import Testing

/// References dropped on another thread: the state goes on working on its own thread, and
/// the registry slots are freed at its next operation.
@Suite(.timeLimit(.minutes(30))) struct CrossThreadReleaseTests {
  let lua: LuaState

  init() throws {
    lua = try LuaState()
    // Counts the registry slots that hold a value tagged as a probe.
    try lua.run(
      """
      function probes()
        local n = 0
        for _, v in pairs(debug.getregistry()) do
          if type(v) == 'table' and rawget(v, 'probe') then n = n + 1 end
          if type(v) == 'function' and probe_functions[v] then n = n + 1 end
        end
        return n
      end
      probe_functions = setmetatable({}, {__mode = 'k'})
      function make_probe_function()
        local f = function() return 'probe' end
        probe_functions[f] = true
        return f
      end
      """)
  }

  func probeCount() throws -> Int { try Int(luaValue: lua.run("return probes()")[0]) }

  /// Drops what `box` holds on a new thread and waits until it has.
  func dropOnAnotherThread<Value>(_ box: Holder<Value>) {
    let done = DispatchSemaphore(value: 0)
    Thread {
      box.values.removeAll()
      done.signal()
    }.start()
    done.wait()
  }

  @Test func tablesDroppedOnAnotherThreadFreeTheirSlots() throws {
    let box = Holder<LuaTable>()
    for i in 0..<1000 {
      box.values.append(try LuaTable(luaValue: lua.run("return {probe = true, n = \(i)}")[0]))
    }
    #expect(try probeCount() == 1000)
    dropOnAnotherThread(box)
    #expect(try probeCount() == 0)
    #expect(try lua.run("return 6 * 7") == [42])
  }

  @Test func functionsDroppedOnAnotherThreadFreeTheirSlots() throws {
    let box = Holder<LuaFunction>()
    for _ in 0..<1000 {
      box.values.append(try LuaFunction(luaValue: lua.run("return make_probe_function()")[0]))
    }
    #expect(try box.values[0].call(returning: String.self) == "probe")
    #expect(try probeCount() == 1000)
    dropOnAnotherThread(box)
    #expect(try probeCount() == 0)
  }

  @Test func aDroppedTableBecomesCollectable() throws {
    try lua.run("weak = setmetatable({}, {__mode = 'v'})")
    let box = Holder<LuaTable>()
    box.values.append(try LuaTable(luaValue: lua.run("local t = {} weak[1] = t return t")[0]))
    // Swift's reference keeps the table alive through a collection.
    #expect(try lua.run("collectgarbage() return weak[1] ~= nil") == [true])
    dropOnAnotherThread(box)
    #expect(try lua.run("collectgarbage() return weak[1] == nil") == [true])
  }

  /// A value Swift drops inside a call from Lua is freed as the call returns, before Lua
  /// runs on: a script's own `collectgarbage` (or a memory error's emergency collection)
  /// then finds it unreferenced. It waited for Swift's next entry into the state, so a
  /// failed action's coroutine, with everything its stack held, stayed alive meanwhile.
  @Test func aValueDroppedDuringACallIsFreedAsTheCallReturns() throws {
    let box = Holder<LuaValue>()
    try lua.register("keep") { values in
      box.values = values
      return []
    }
    try lua.register("drop") { _ in
      box.values.removeAll()
      return []
    }
    let results = try lua.run(
      """
      local weak = setmetatable({}, {__mode = 'v'})
      local t = {probe = true}
      weak[1] = t
      keep(t)
      t = nil
      collectgarbage()
      local keptAlive = weak[1] ~= nil
      drop()
      collectgarbage()
      return keptAlive, weak[1] == nil, probes()
      """)
    #expect(results == [true, true, 0])
  }

  @Test func droppingOneCopyElsewhereKeepsTheOthersWorking() throws {
    let table = try LuaTable(luaValue: lua.run("return {probe = true, name = 'kept'}")[0])
    let box = Holder<LuaTable>()
    box.values = Array(repeating: table, count: 10)
    dropOnAnotherThread(box)
    #expect(try probeCount() == 1)
    #expect(try table.get("name") == "kept")
    try table.set("name", "changed")
    #expect(
      try lua.run(
        "for _, v in pairs(debug.getregistry()) do if type(v) == 'table' and v.probe then return v.name end end"
      ) == ["changed"])
  }

  @Test func memoryStaysFlatOverTenThousandDrops() throws {
    let queue = DispatchQueue(label: "luahost.tests.drops")
    func dropBatch(_ count: Int) throws {
      for _ in 0..<count {
        let results = try lua.run("return {probe = true}, function() end")
        let box = Holder<LuaValue>()
        box.values = results
        queue.async { box.values.removeAll() }
      }
      queue.sync {}
      _ = try lua.run("return 1")  // frees the queued slots
      lua.collectGarbage()
    }
    // Warm up with every slot of a batch in flight at once: the registry's array keeps the
    // capacity the most slots in flight needed, which is not a leak, and a batch can need
    // no more than this whatever the threads' timing. A leak grows with every batch.
    var held: [[LuaValue]] = []
    for _ in 0..<10_000 { held.append(try lua.run("return {probe = true}, function() end")) }
    held.removeAll()
    _ = try lua.run("return 1")
    lua.collectGarbage()
    try dropBatch(10_000)
    let before = lua.memoryInUse
    try dropBatch(10_000)
    #expect(try probeCount() == 0)
    // A leak of 10,000 tables and functions would be over a megabyte, far past twice the
    // state's size.
    #expect(lua.memoryInUse <= 2 * before)
  }
}

/// Values made on the test's thread and dropped on another one, which alone touches the
/// holder until it signals (or the queue is drained).
final class Holder<Value>: @unchecked Sendable {
  var values: [Value] = []
}
