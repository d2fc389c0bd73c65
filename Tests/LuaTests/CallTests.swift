import Lua
import Testing

final class Counter {
  var value = 0
  let onDeinit: (() -> Void)?
  init(onDeinit: (() -> Void)? = nil) { self.onDeinit = onDeinit }
  deinit { onDeinit?() }
}

/// Counts deinitialisations, shared by closures under test.
final class DeinitCounter {
  var count = 0
}

@Suite(.timeLimit(.minutes(30))) struct CallTests {
  let lua: LuaState
  init() throws { lua = try LuaState() }

  @Test func chunksReturnAllResults() throws {
    #expect(try lua.run("return 1, 'two', nil, 4.5") == [1, "two", .nil, 4.5])
    #expect(try lua.run("x = 1").isEmpty)
  }

  @Test func callingLuaFunctionsWithAnyArity() throws {
    let f = try LuaFunction(
      luaValue: lua.run("return function(...) return select('#', ...), ... end")[0])
    #expect(try f.call() == [0])
    #expect(try f.call(1, 2, 3) == [3, 1, 2, 3])
    let many = (1...100).map { LuaValue.integer(Int64($0)) }
    let results = try f.call(arguments: many)
    #expect(results.count == 101 && results[0] == 100 && results[100] == 100)
    let add = try lua.load("local a, b = ... return a + b")
    #expect(try add.call(.integer(2), .integer(3), returning: Int.self) == 5)
  }

  @Test func swiftClosuresAsGlobalsAndFields() throws {
    try lua.register("sum") { arguments in
      [.integer(try arguments.reduce(0) { $0 + (try Int64(luaValue: $1)) })]
    }
    #expect(try lua.run("return sum(1, 2, 3)") == [6])
    let module = try lua.makeTable()
    try module.set("twice", .function(lua.function { (x: Int) in x * 2 }))
    try lua.globals().set("m", .table(module))
    #expect(try lua.run("return m.twice(21)") == [42])
    try lua.register("greet") { (name: String, excited: Bool?) in
      "hello, \(name)" + (excited == true ? "!" : "")
    }
    #expect(
      try lua.run("return greet('lua', true), greet('swift')") == ["hello, lua!", "hello, swift"])
    let error = try #require(throws: LuaError.self) { try lua.run("greet({})") }
    #expect(error.message.contains("bad argument #1"))
  }

  @Test func multipleResultsFromSwift() throws {
    try lua.register("divmod") { arguments in
      let a = try Int64(luaValue: arguments[0])
      let b = try Int64(luaValue: arguments[1])
      return [.integer(a / b), .integer(a % b)]
    }
    #expect(try lua.run("return divmod(17, 5)") == [3, 2])
  }

  @Test func swiftClassesAsUserdata() throws {
    try lua.register(Counter.self, name: "Counter") { type in
      type.method("increment") { counter, arguments in
        counter.value += try Int(luaValue: arguments.first ?? 1)
        return [.integer(Int64(counter.value))]
      }
      type.property(
        "value", get: { .integer(Int64($0.value)) }, set: { $0.value = try Int(luaValue: $1) })
      type.property("kind", get: { _ in "counter" })
      type.metamethod(.len) { arguments in
        [.integer(Int64(try #require(arguments[0].userdataObject(Counter.self)).value))]
      }
      // Counters are equal when their values are (two distinct objects can be).
      type.metamethod(.eq) { arguments in
        [
          .boolean(
            arguments[0].userdataObject(Counter.self)?.value
              == arguments[1].userdataObject(Counter.self)?.value)
        ]
      }
    }
    let counter = Counter()
    try lua.globals().set("c", lua.userdata(counter))
    #expect(
      try lua.run("c:increment(5) c:increment(2) return c.value, #c, c.kind") == [7, 7, "counter"])
    try lua.run("c.value = 100")
    #expect(counter.value == 100)
    #expect(try lua.run("return tostring(c):match('^Counter: ') ~= nil") == [true])
    let readOnly = try #require(throws: LuaError.self) { try lua.run("c.kind = 'x'") }
    #expect(readOnly.message.contains("read-only"))
    let badSelf = try #require(throws: LuaError.self) { try lua.run("c.increment({})") }
    #expect(badSelf.message.contains("Counter expected"))
    #expect(try lua.run("return getmetatable(c)") == ["Counter"])
    // Distinct userdata, so `==` consults __eq (the same one is equal before it is asked).
    let other = Counter()
    try lua.globals().set("d", lua.userdata(other))
    #expect(try lua.run("return c == d, rawequal(c, d)") == [false, false])
    other.value = 100
    #expect(try lua.run("return c == d, rawequal(c, d)") == [true, false])
  }

  @Test func objectsAreReleasedWhenLuaDropsThem() throws {
    let deinits = DeinitCounter()
    do {
      try lua.globals().set("obj", lua.userdata(Counter { deinits.count += 1 }))
    }
    try lua.run("obj = nil")
    lua.collectGarbage()
    #expect(deinits.count == 1)
  }

  @Test func capturedObjectsAreReleasedAfterFailingCalls() throws {
    let deinits = DeinitCounter()
    do {
      let state = try LuaState()
      let captured = Counter { deinits.count += 1 }
      try state.register("fail") { _ in
        captured.value += 1
        throw MyError(code: captured.value)
      }
      for _ in 0..<100 {
        let error = try #require(throws: LuaError.self) { try state.run("fail()") }
        #expect(error.kind == .swift)
        #expect(error.underlying(as: MyError.self) != nil)
      }
      #expect(captured.value == 100)
    }
    #expect(deinits.count == 1)
  }

  @Test func closuresDroppedByLuaAreReleased() throws {
    let deinits = DeinitCounter()
    do {
      let captured = Counter { deinits.count += 1 }
      try lua.globals().set("f", .function(lua.function { _ in [.integer(Int64(captured.value))] }))
    }
    #expect(deinits.count == 0)
    try lua.run("f = nil")
    lua.collectGarbage()
    #expect(deinits.count == 1)
  }

  @Test func referencesReleaseRegistrySlots() throws {
    lua.collectGarbage()
    _ = try lua.run("return 1")
    let before = lua.memoryInUse
    for _ in 0..<10_000 {
      _ = try lua.run("return {}, function() end")
    }
    _ = try lua.run("return 1")  // drains queued releases
    lua.collectGarbage()
    #expect(lua.memoryInUse <= before + before / 10)
  }

  @Test func coroutinesCanCallSwift() throws {
    try lua.register("double") { (x: Int) in x * 2 }
    let results = try lua.run(
      """
      local co = coroutine.wrap(function(a) local b = coroutine.yield(double(a)) return double(b) end)
      return co(2), co(10)
      """)
    #expect(results == [4, 20])
  }

  /// Swift code that a coroutine's call reached uses that coroutine's thread when it enters
  /// the state again, and the main thread once the call has returned (the trampoline makes
  /// the caller's thread current for the call).
  @Test(arguments: ["", "__index"])
  func swiftCalledFromACoroutineRunsLuaOnThatCoroutine(through metamethod: String) throws {
    try lua.register(
      "isMain",
      arguments: { (arguments: LuaArguments) -> Bool in
        try arguments.state.run("return select(2, coroutine.running())") == [true]
      })
    let call = metamethod.isEmpty ? "isMain()" : "setmetatable({}, {__index = isMain}).x"
    let results = try lua.run(
      """
      local outer = \(call)
      suspended = coroutine.create(function()
        coroutine.yield(\(call), coroutine.wrap(function() return \(call) end)())
      end)
      local _, inCoroutine, inNested = coroutine.resume(suspended)
      return outer, inCoroutine, inNested
      """)
    #expect(results == [true, false, false])
    // The coroutine is suspended, not running: Swift enters on the main thread again.
    #expect(try lua.run("return select(2, coroutine.running())") == [true])
    #expect(try lua.run("return coroutine.status(suspended), \(call)") == ["suspended", true])
  }
}

extension LuaValue {
  func userdataObject<T: AnyObject>(_ type: T.Type) -> T? {
    if case .userdata(let u) = self { return u.object(as: type) }
    return nil
  }
}
