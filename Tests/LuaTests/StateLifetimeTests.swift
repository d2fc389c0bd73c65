import Lua
import Testing

/// A state that a test drops from inside its own code (the one reference to it).
final class StateBox: @unchecked Sendable {
  // `@unchecked Sendable`: each test touches the box from one task or thread at a time.
  var lua: LuaState?
}

/// A `LuaState` freed while its core still runs: the core keeps running its code to the
/// end (the close waits for it), and every path that needs the `LuaState` object (a typed
/// function's conversion, an async function's result) must find it gone and fail with an
/// error, never read a freed object.
@Suite(.timeLimit(.minutes(30))) struct StateLifetimeTests {
  /// The state's last reference dropped by its own Swift function: the close waits for
  /// the chunk to return, and a typed function called after that (its result is a table,
  /// made in the state) raises instead of using the freed state.
  @Test func aTypedFunctionAfterItsStateWasDroppedRaises() throws {
    let box = StateBox()
    box.lua = try LuaState()
    try box.lua!.register("drop") { _ in
      box.lua = nil
      return []
    }
    try box.lua!.register("pair") { (x: Int) -> [Int] in [x, x] }
    let chunk = try box.lua!.load("drop() return pair(1)")
    // The Swift error comes back out of Lua as itself.
    #expect { try chunk.call() } throws: { error in
      (error as? LuaError).map { $0.kind == .usage && $0.message.contains("closed") } ?? false
    }
    #expect(box.lua == nil)
  }

  /// A typed async function whose state is freed while it waits: the coroutine keeps only
  /// the core, so the result's conversion must find the state gone (it threw "already
  /// destroyed" before) and the call fail with a usage error.
  @Test func aStateFreedWhileATypedAsyncFunctionWaitsFailsTheCall() async throws {
    let box = StateBox()
    box.lua = try LuaState()
    let function = try box.lua!.function { (x: Int) async throws -> [Int] in
      box.lua = nil  // the last reference, while no Lua code runs: the state closes here
      await Task.yield()
      return [x, x]
    }
    try await expectFailureWithTheStateGone(function, box)
  }

  /// The same with a scalar result, which converts without the state: the resumption
  /// finds the state gone.
  @Test func aStateFreedWhileAScalarAsyncFunctionWaitsFailsTheCall() async throws {
    let box = StateBox()
    box.lua = try LuaState()
    let function = try box.lua!.function { (x: Int) async throws -> Int in
      box.lua = nil
      await Task.yield()
      return x
    }
    try await expectFailureWithTheStateGone(function, box)
  }

  /// Calls `function`, whose body drops `box`'s state: the call must fail saying so.
  func expectFailureWithTheStateGone(_ function: LuaFunction, _ box: StateBox) async throws {
    do {
      _ = try await function.call(arguments: [.integer(1)])
      Issue.record("the call succeeded with its state gone")
    } catch let error as LuaError {
      #expect(error.message.contains("closed"))
    }
    #expect(box.lua == nil)
  }

  /// A confined state: a typed async function's result is converted after the wait, when
  /// the driver holds no lock, so the conversion (a table) must take the state's lock
  /// (before, it used the state without it, which stops a debug build).
  @Test func aConfinedStateConvertsATypedAsyncResultUnderItsLock() async throws {
    let lua = try LuaState()
    lua.confine()
    let function = try lua.withLock { lua in
      try lua.function { (x: Int) async throws -> [Int] in
        await Task.yield()
        return [x, x + 1]
      }
    }
    // As a host of a confined state drives it: start under the lock; each later step
    // takes the lock itself.
    let coroutine = try lua.withLock { _ in try LuaCoroutine(function) }
    let progress = try lua.withLock { _ in try coroutine.start(arguments: [.integer(1)]) }
    guard case .suspended = progress else {
      Issue.record("the function did not wait")
      return
    }
    let results = try await coroutine.finish()
    let values = try lua.withLock { _ in try [Int](luaValue: results.first ?? .nil) }
    #expect(values == [1, 2])
  }
}
