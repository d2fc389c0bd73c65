import Foundation
import Lua
import LuaHost
import ViewTree

/// Case 9: async host functions. 9a: a call from Lua to an async Swift function and back
/// (the coroutine suspends and is resumed) against the same call to a sync one. 9b: 1,000
/// plugins that each wait on a 0.2 s timer at once: wall time and memory.
struct AsyncCases {
  let repetitions: Int
  let calls = 20_000

  func run() async throws -> [Row] {
    let lua = try LuaState(sandbox: LuaSandbox())
    try lua.register("sync") { (value: Int) in value }
    try lua.register("async") { (value: Int) async throws -> Int in value }
    let syncLoop = try lua.load("local s = 0 for i = 1, \(calls) do s = s + sync(i) end return s")
    let asyncLoop = try lua.load("local s = 0 for i = 1, \(calls) do s = s + async(i) end return s")
    // A sync helper: in an async context, `call` means the async overload.
    func callSynchronously(_ function: LuaFunction) throws { _ = try function.call(arguments: []) }
    var ours: [Double] = []
    var baseline: [Double] = []
    for _ in 0..<repetitions {
      let start = Measure.now()
      _ = try await asyncLoop.call()
      ours.append(Double(Measure.now() - start) / Double(calls))
      let syncStart = Measure.now()
      try callSynchronously(syncLoop)
      baseline.append(Double(Measure.now() - syncStart) / Double(calls))
    }
    lua.close()
    let (wall, perPlugin) = try await waitingPlugins()
    return [
      Row(
        name: "9a. Lua → async Swift function → back (suspend, resume) vs a sync one",
        ours: Measure.median(ours), baseline: Measure.median(baseline)),
      Row(
        name: "9b. 1,000 plugins each awaiting timer.sleep(0.2) at once: wall time, all done",
        ours: wall, unit: "ms"),
      Row(
        name: "9c. malloc heap per waiting plugin (state, panel, coroutine, task)",
        ours: perPlugin, unit: "B"),
    ]
  }

  /// Loads 1,000 plugins whose main chunk sleeps 0.2 s, and waits until all are done.
  /// Returns the wall time (ms, medians of a few runs) and the heap growth per plugin.
  func waitingPlugins() async throws -> (Double, Double) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "luahost-bench-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for index in 0..<1000 {
      try Data("timer.sleep(0.2) done = true".utf8).write(
        to: folder.appendingPathComponent(String(format: "p%04d.lua", index)))
    }
    var walls: [Double] = []
    var heaps: [Double] = []
    for _ in 0..<max(3, repetitions / 3) {
      let root = View.window(id: "root")
      let container = try root.add(View.stack(id: "plugins"))
      let host = PluginHost(container: container) { _ in }
      let heapBefore = PluginCases.heapBytes()
      let start = Measure.now()
      let results = host.loadAll(in: folder.path)
      guard results.allSatisfy({ (try? $0.get()) != nil }) else {
        throw BenchError("a plugin failed")
      }
      heaps.append(Double(PluginCases.heapBytes() - heapBefore) / 1000)
      await host.idle()
      walls.append(Double(Measure.now() - start) / 1e6)
      for plugin in host.plugins { try host.unload(plugin.name) }
      withExtendedLifetime(root) {}
    }
    return (Measure.median(walls), Measure.median(heaps))
  }
}
