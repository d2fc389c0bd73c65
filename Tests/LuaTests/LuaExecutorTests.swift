import Foundation
import Lua
import Synchronization
import TestSupport
import Testing

// A state's async work runs on its executor, on threads of LuaHost's own: Lua that loops,
// or waits for its state's lock, never holds the cooperative pool's few threads.
// The limit is a guard against a hang, not a measure: an async test here waits for its
// continuations behind the blocking tests the suite runs beside it on the cooperative pool,
// and under AddressSanitizer the whole suite takes about 330 s (5 minutes timed three of
// these out in a fresh-clone run).
@Suite(.timeLimit(.minutes(30))) struct LuaExecutorTests {
  @Test func executorsRunAtOnceBeyondThePoolsWidth() async {
    // Each job blocks its thread until every other has started: only threads beyond the
    // pool's can let them all start.
    let gathering = Gathering(expected: moreThanThePool)
    let met = await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<moreThanThePool {
        group.addTask(executorPreference: LuaExecutor()) {
          gathering.arrive()
          return gathering.wait()
        }
      }
      return await group.reduce(true) { $0 && $1 }
    }
    #expect(met)
  }

  @Test func oneExecutorsJobsRunOneAtATimeInTheOrderTheyCame() async {
    let executor = LuaExecutor()
    let log = LockedValue<(order: [Int], running: Int, most: Int)>(([], 0, 0))
    var tasks: [Task<Void, Never>] = []
    for index in 0..<200 {
      tasks.append(
        Task(executorPreference: executor) {
          log.withLock {
            $0.running += 1
            $0.most = max($0.most, $0.running)
          }
          usleep(50)
          log.withLock {
            $0.order.append(index)
            $0.running -= 1
          }
        })
    }
    for task in tasks { await task.value }
    let (order, _, most) = log.withLock { $0 }
    #expect(most == 1)
    #expect(order == Array(0..<200))
  }

  @Test func aCoroutineGoesOnOnItsStatesExecutorOnceItWaits() async throws {
    // Each state's script waits once, then loops until every script has arrived: on the
    // pool, the loops would hold every thread and the others could never arrive.
    let gathering = Gathering(expected: moreThanThePool)
    var states: [LuaState] = []
    for _ in 0..<moreThanThePool {
      var sandbox = LuaSandbox()
      sandbox.timeout = .seconds(600)  // a bound on a hang: the pool starts the others late
      let lua = try LuaState(sandbox: sandbox)
      try lua.register("pause") { (value: Int) async throws -> Int in value }
      try lua.register("arrive") { gathering.arrive() }
      try lua.register("everyone") { gathering.isComplete }
      lua.confine()
      states.append(lua)
    }
    let boxes = states.map(ConfinedState.init)
    let results = try await withThrowingTaskGroup(of: String?.self) { group in
      for box in boxes {
        group.addTask {
          let coroutine = try box.lua.withLock { lua in try LuaCoroutine(lua.load(Self.meeting)) }
          var results: [LuaValue] = []
          if case .finished(let values) = try coroutine.start() {
            results = values
          } else {
            results = try await coroutine.finish()
          }
          return try box.lua.withLock { _ in try String?(luaValue: results.first ?? .nil) }
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == moreThanThePool)
    #expect(results.allSatisfy { $0 == "met" })
    for state in states { state.close() }
  }

  static let meeting = "pause(1) arrive() while not everyone() do end return 'met'"
}

/// A confined state handed to a task: every use takes its lock.
struct ConfinedState: @unchecked Sendable {
  let lua: LuaState
}
