import Lua
import Synchronization
import Testing

struct Quota: Error, Equatable { var left: Int }

/// A counter shared between tasks.
final class WaitCounter: Sendable {
  let value = Atomic<Int>(0)
}

/// Owns one state, as a plugin's actor would: the state never leaves it.
actor ScriptActor {
  let lua: LuaState
  init(timeout: Duration? = nil, memoryLimit: Int? = 64 << 20) throws {
    var sandbox = LuaSandbox()
    sandbox.timeout = timeout
    sandbox.memoryLimit = memoryLimit
    lua = try LuaState(sandbox: sandbox)
  }
  func register(_ name: String, seconds: Double) throws {
    try lua.register(name) { (arguments: [LuaValue]) async throws -> [LuaValue] in
      try await Task.sleep(for: .seconds(seconds))
      return [.integer(2 * (try Int64(luaValue: arguments.first ?? .nil)))]
    }
  }
  /// Registers `name`: it counts the callers waiting in `waiting`, and returns twice its
  /// argument once `count` of them wait (or fails after 10 minutes: a bound on a hang, as
  /// the pool may start the others late on a loaded machine).
  func registerBarrier(_ name: String, count: Int, _ waiting: WaitCounter) throws {
    try lua.register(name) { (arguments: [LuaValue]) async throws -> [LuaValue] in
      waiting.value.add(1, ordering: .relaxed)
      let start = ContinuousClock.now
      while waiting.value.load(ordering: .relaxed) < count {
        guard ContinuousClock.now - start < .seconds(600) else { throw Quota(left: -1) }
        try await Task.sleep(for: .milliseconds(5))
      }
      return [.integer(2 * (try Int64(luaValue: arguments.first ?? .nil)))]
    }
  }

  /// Runs `code` and gives its results as text (values of the state stay in the actor).
  func run(_ code: String) async throws -> [String] {
    try await lua.run(code, name: "=async").map(\.description)
  }
}

@Suite(.timeLimit(.minutes(30))) struct AsyncFunctionTests {
  let lua: LuaState

  init() throws {
    // No deadline: the suite's other tests may keep the cooperative pool busy for a while.
    var sandbox = LuaSandbox()
    sandbox.timeout = nil
    lua = try LuaState(sandbox: sandbox)
    try lua.register("twice") { (value: Int) async throws -> Int in
      try await Task.sleep(for: .milliseconds(5))
      return value * 2
    }
    try lua.register("values") { (arguments: [LuaValue]) async throws -> [LuaValue] in
      await Task.yield()
      return arguments.reversed()
    }
    try lua.register("spend") { (amount: Int) async throws -> Int in
      await Task.yield()
      throw Quota(left: 3 - amount)
    }
  }

  @Test func aMainChunkAwaitsAndResumesWithTheResults() async throws {
    let results = try await lua.run("local a = twice(21) return a, values(1, 'two', true)")
    #expect(results == [42, true, "two", 1])
  }

  @Test func awaitingWorksInsideFunctionsAndPcall() async throws {
    let results = try await lua.run(
      """
      local function sum(n) local s = 0 for i = 1, n do s = s + twice(i) end return s end
      local ok, v = pcall(twice, 4)
      return sum(3), ok, v, select('#', values())
      """)
    #expect(results == [12, true, 8, 0])
  }

  @Test func aSwiftErrorComesBackTheSameAndPcallCatchesIt() async throws {
    #expect(try await lua.run("return pcall(spend, 1)").first == false)
    do {
      try await lua.run("spend(2)", name: "=budget")
      Issue.record("expected an error")
    } catch let error as LuaError {
      #expect(error.kind == .swift)
      #expect(error.underlying(as: Quota.self) == Quota(left: 1))
      #expect(error.traceback.frames.contains { $0.source == "budget" && $0.line == 1 })
    }
  }

  @Test func aScriptErrorAfterAnAwaitKeepsItsLocationAndTraceback() async throws {
    do {
      try await lua.run(
        "local x = twice(1)\nlocal function f() error('late') end\nf()", name: "=late")
      Issue.record("expected an error")
    } catch let error as LuaError {
      #expect(error.kind == .runtime)
      #expect(error.message == "late:2: late")
      #expect(error.traceback.frames.map(\.line).contains(3))
    }
  }

  @Test func aBadArgumentFailsAtTheCall() async throws {
    let error = try await #require(throws: LuaError.self) { _ = try await lua.run("twice('x')") }
    #expect(error.kind == .runtime)
    #expect(
      error.message.contains("bad argument #1 (integer expected, got string)"), "\(error.message)")
    let message = try await lua.run("return select(2, pcall(twice, 'x'))").first
    #expect(message?.description.contains("bad argument #1") == true)
  }

  @Test func anAsyncFunctionOutsideADrivenCoroutineSaysSo() async throws {
    // A synchronous call cannot suspend.
    func runSynchronously() throws { try lua.run("twice(1)") }
    do {
      try runSynchronously()
      Issue.record("expected an error")
    } catch let error as LuaError {
      #expect(error.message.contains("outside a task-driven coroutine"), "\(error.message)")
    }
    // Nor can the script's own coroutine, nor a metamethod's C boundary.
    let inWrap = try await lua.run(
      "return pcall(coroutine.wrap(function() return twice(1) end))")
    #expect(inWrap.first == false)
    #expect(inWrap.last?.description.contains("outside a task-driven coroutine") == true)
    let inSort = try await lua.run(
      "return pcall(table.sort, {3, 2, 1}, function(a, b) return twice(a) < twice(b) end)")
    #expect(inSort.first == false)
    // And a plain yield at the top of a driven coroutine is the usual error.
    let plainYield = try await #require(throws: LuaError.self) {
      _ = try await lua.run("coroutine.yield(1)")
    }
    #expect(plainYield.kind == .runtime)
    #expect(
      plainYield.message.contains("attempt to yield from outside a coroutine"),
      "\(plainYield.message)")
  }

  @Test func theDeadlineCountsWhileWaitingAndCancelsTheOperation() async throws {
    let cancelled = Atomic<Bool>(false)
    let started = Atomic<Bool>(false)
    let slow = try LuaState(sandbox: LuaSandbox())
    slow.timeout = .milliseconds(200)
    try slow.register("hang") { (_: [LuaValue]) async throws -> [LuaValue] in
      started.store(true, ordering: .relaxed)
      do {
        try await Task.sleep(for: .seconds(3600))
      } catch {
        cancelled.store(true, ordering: .relaxed)
        throw error
      }
      return []
    }
    try slow.register("nap") { (_: [LuaValue]) async throws -> [LuaValue] in
      try await Task.sleep(for: .milliseconds(30))
      return []
    }
    do {
      try await slow.run("local ok = pcall(hang) return 'survived'")
      Issue.record("expected a timeout")
    } catch let error as LuaError {
      #expect(error.kind == .timeout)
    }
    // The operation did not sleep its hour: the deadline cancelled it. (No bound on the
    // time taken: the suite's other tests can keep the cooperative pool busy, and may keep
    // the operation from starting before the deadline; then there was nothing to cancel.)
    let sawCancellation = cancelled.load(ordering: .relaxed)
    #expect(sawCancellation || !started.load(ordering: .relaxed))
    // Many short waits add up: wall time, not time spent running. (Ten thousand naps: five
    // minutes unless the deadline stops them.)
    let naps = try await #require(throws: LuaError.self) {
      _ = try await slow.run("for i = 1, 1e4 do nap() end")
    }
    #expect(naps.kind == .timeout)
    // A busy loop after an await is stopped too.
    let busy = try await #require(throws: LuaError.self) {
      _ = try await slow.run("nap() while true do end")
    }
    #expect(busy.kind == .timeout)
  }

  @Test func cancellingTheTaskStopsTheScript() async throws {
    let script = try ScriptActor()
    try await script.register("wait", seconds: 3600)
    let waiting = Task { try await script.run("wait(1) return 'never'") }
    onAThread(after: 50) { waiting.cancel() }
    do {
      _ = try await waiting.value
      Issue.record("expected an interruption")
    } catch let error as LuaError {
      #expect(error.kind == .interrupted)
    }
    let busy = Task { try await script.run("while true do end") }
    onAThread(after: 50) { busy.cancel() }
    let stopped = try await #require(throws: LuaError.self) { _ = try await busy.value }
    #expect(stopped.kind == .interrupted)
    // The state goes on working.
    #expect(try await script.run("return 1 + 1") == ["2"])
  }

  @Test func theMemoryLimitHoldsAcrossSuspensions() async throws {
    let script = try ScriptActor(memoryLimit: 8 << 20)
    try await script.register("wait", seconds: 0.001)
    do {
      _ = try await script.run(
        "local t = {} for i = 1, 1e4 do t[i] = string.rep('x', 1e5 + wait(i)) end")
      Issue.record("expected a memory error")
    } catch let error as LuaError {
      #expect(error.kind == .memory)
    }
  }

  @Test func manyStatesAwaitAtOnce() async throws {
    // Each script waits until all fifty are waiting: that ends only if they wait at once.
    let waiting = WaitCounter()
    let scripts = try (0..<50).map { _ in try ScriptActor() }
    for script in scripts { try await script.registerBarrier("gather", count: 50, waiting) }
    let sums = try await withThrowingTaskGroup(of: Int.self) { group in
      for (index, script) in scripts.enumerated() {
        group.addTask {
          let results = try await script.run("return gather(\(index))")
          return Int(results[0]) ?? -1
        }
      }
      return try await group.reduce(0, +)
    }
    #expect(sums == (0..<50).reduce(0) { $0 + 2 * $1 })
  }

  @Test func aStateWithAsyncFunctionsIsFreed() throws {
    // Lua holds the functions, the state holds Lua: a function that held the state would
    // keep it (and everything Lua holds) alive for ever. LeakSanitizer found that once.
    weak var freed: LuaState?
    do {
      let state = try LuaState(sandbox: LuaSandbox())
      try state.register("typed") { (x: Int) async throws -> Int in x }
      try state.register("untyped") { (arguments: [LuaValue]) async throws -> [LuaValue] in
        arguments
      }
      freed = state
    }
    #expect(freed == nil)
  }

  @Test func aCoroutineStartsSynchronouslyAndFinishesLater() async throws {
    let function = try lua.load("local x = ... if x > 0 then x = twice(x) end return x + 1")
    let quick = try LuaCoroutine(function)
    guard case .finished(let results) = try quick.start(arguments: [0]) else {
      Issue.record("expected it to finish at once")
      return
    }
    #expect(results == [1])
    let slow = try LuaCoroutine(function)
    guard case .suspended = try slow.start(arguments: [5]) else {
      Issue.record("expected it to wait")
      return
    }
    #expect(try await slow.finish() == [11])
    let again = try await #require(throws: LuaError.self) { _ = try await slow.finish() }
    #expect(again.kind == .usage)
    #expect(again.message == "the coroutine has finished")
  }
}
