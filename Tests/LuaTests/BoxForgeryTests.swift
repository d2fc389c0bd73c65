import Lua
import Testing

/// Trusted code has the debug library, which can give any userdata another's metatable and
/// call a metatable's `__gc` by hand. Neither may make the host read a value that LuaHost
/// did not make as a Swift object: both crashed the host while boxes were recognised by
/// their metatable. (Swapping a Swift function's upvalue with `debug.setupvalue` is left
/// as unsafe as it is for stock C closures: see `lh_dispatchboxed`.)
@Suite(.timeLimit(.minutes(30))) struct BoxForgeryTests {
  final class Counter { var n = 7 }

  let lua: LuaState
  let counter = Counter()

  init() throws {
    lua = try LuaState()  // every standard library, debug included
    try lua.register(Counter.self, name: "Counter") { type in
      type.property("n", get: { $0.n })
      type.method("bump") { (counter: Counter) in counter.n += 1 }
    }
    try lua.globals().set("c", lua.userdata(counter))
  }

  /// io.stdout is a full userdata (a `FILE *` and a function pointer) with the view's
  /// metatable: neither its size nor its bytes make it a box.
  @Test func aFileWithAnObjectsMetatableIsNoObject() throws {
    let results = try lua.run(
      """
      debug.setmetatable(io.stdout, debug.getmetatable(c))
      local read, readError = pcall(function() return io.stdout.n end)
      local call, callError = pcall(function() return io.stdout:bump() end)
      return read, readError, call, callError
      """)
    #expect(
      results == [
        false, "bad self: Counter expected, got userdata", false,
        "bad self: Counter expected, got userdata",
      ])
    let file = try lua.run("return io.stdout")[0]
    guard case .userdata(let userdata) = file else {
      Issue.record("io.stdout is \(file)")
      return
    }
    #expect(userdata.object(as: Counter.self) == nil)
    #expect(userdata.object(as: AnyObject.self) == nil)
    #expect(counter.n == 7)
  }

  /// A userdata type's `__index` is a C closure over its member table (a method's name maps
  /// to its function, a property's to its slot), which returns methods without entering
  /// Swift. Trusted code can reach the table with `debug.getupvalue` and rewrite it: a slot
  /// out of range, or of another type, reads as a missing field, never as a read past the
  /// host's array of readers.
  @Test func aRewrittenMemberTableReadsAsMissingFields() throws {
    let results = try lua.run(
      """
      local index = debug.getmetatable(c).__index
      local _, members = debug.getupvalue(index, 2)
      local same = rawequal(c.bump, c.bump) and type(c.bump) == 'function'
      local slot = members.n
      members.n = 999; local far = c.n
      members.n = -1; local negative = c.n
      members.n = 'x'; local text = c.n
      members.n = 0.5; local fraction = c.n
      members.bump = 5; local bump = c.bump
      members.n = slot
      local swapped = debug.setupvalue(index, 2, 42)
      local afterSwap = c.n
      return same, far, negative, text, fraction, bump, swapped, afterSwap
      """)
    #expect(results == [true, .nil, .nil, .nil, .nil, .nil, "", .nil])
  }

  /// A Swift function's box is borrowed, not retained, for each call: a `__gc` called by
  /// hand while the call runs must not free it under the call (a use after free under
  /// AddressSanitizer), and one called between calls makes later calls fail with an error,
  /// not return nothing.
  @Test func aFinalizerCalledByHandOnASwiftFunctionsBoxFreesNothingInUse() throws {
    try lua.register("callBack") { values in
      guard case .function(let function)? = values.first else { return [] }
      _ = try function.call()
      return [7]
    }
    let results = try lua.run(
      """
      local _, box = debug.getupvalue(callBack, 1)
      local gc = debug.getmetatable(box).__gc
      local during = callBack(function() gc(box) collectgarbage() collectgarbage() end)
      local after = callBack(function() end)
      gc(box)
      local ok, message = pcall(callBack, function() end)
      return during, after, ok, message
      """)
    #expect(results == [7, 7, false, "a Swift function called after its box was released"])
    try lua.run("callBack = nil collectgarbage() collectgarbage()")
  }

  @Test func aFinalizerCalledByHandOnAnotherValueDoesNothing() throws {
    let results = try lua.run(
      """
      local gc = debug.getmetatable(c).__gc
      gc(io.stdout); gc(42); gc(setmetatable({}, {}))
      local fileStillWorks = io.type(io.stdout) == 'file' and io.stdout:seek('cur') ~= false
      gc(c); gc(c)  -- the box is released once; the userdata no longer holds the object
      local ok, message = pcall(function() return c.n end)
      return fileStillWorks, ok, message
      """)
    #expect(results == [true, false, "bad self: Counter expected, got userdata"])
    try lua.run("collectgarbage(); collectgarbage()")
    #expect(counter.n == 7)
  }
}
