import Lua
import Testing

/// A Swift object with typed methods and properties (issue 24, item 8).
final class Tally {
  var value = 0
  var tags: [String] = []
  var totals: [String: Int] = [:]
}

@Suite(.timeLimit(.minutes(30))) struct TypedObjectTests {
  let lua: LuaState
  let tally = Tally()

  init() throws {
    lua = try LuaState()
    try lua.register(Tally.self, name: "Tally") { type in
      type.method("add") { (tally: Tally, step: Int, tag: String?) in
        tally.value += step
        if let tag { tally.tags.append(tag) }
        return tally.value
      }
      type.method("reset") { (tally: Tally) in tally.value = 0 }
      type.method("split") { (tally: Tally, parts: Int) in
        (tally.value / parts, tally.value % parts)
      }
      type.method("count") { (tally: Tally, tags: [String]) in
        for tag in tags { tally.totals[tag, default: 0] += 1 }
        return tally.totals.count
      }
      type.method("snapshot") { (tally: Tally, lua: LuaState) in
        let table = try lua.makeTable()
        try table.set("value", .integer(Int64(tally.value)))
        return table
      }
      type.property("value", get: { $0.value }, set: { $0.value = $1 })
      type.property("tags", get: { $0.tags })
      type.property("totals", get: { $0.totals })
      type.property(
        "described",
        get: { tally, lua in
          let table = try lua.makeTable()
          try table.set("tags", lua.value(tally.tags))
          return table
        })
      // The untyped API still works beside the typed one.
      type.method("double") { tally, _ in
        tally.value *= 2
        return [.integer(Int64(tally.value))]
      }
    }
    try lua.globals().set("t", lua.userdata(tally))
  }

  /// `__index` finds members through a Lua table of interned names: a property shadows a
  /// method of the same name, and any other key (a number, a name it lacks, bytes that
  /// are not UTF-8, a name with a NUL) reads as the fallback's value, as before.
  @Test func indexFindsMembersByTheirNamesOnly() throws {
    let other = try LuaState()
    final class Thing {}
    try other.register(Thing.self, name: "Thing") { type in
      type.method("both") { _, _ in ["method"] }
      type.property("both", get: { _ in "property" })
      type.property("n", get: { _ in .integer(7) })
      type.index { _, key in .string(LuaString("fallback \(key.typeName)")) }
    }
    let thing = Thing()
    try other.globals().set("x", other.userdata(thing))
    let results = try other.run(
      "return x.both, x.n, x[1], x.missing, x['n\\0'], x['\\255'], type(x.nn)")
    #expect(
      results == [
        "property", 7, "fallback number", "fallback string", "fallback string", "fallback string",
        "string",
      ])
    // Methods still come back as the same function each time.
    #expect(try lua.run("return t.add == t.add") == [true])
    withExtendedLifetime(thing) {}
  }

  @Test func typedMethodsTakeSeveralConvertedArguments() throws {
    #expect(try lua.run("t:add(2); return t:add(3, 'x'), t:double()") == [5, 10])
    #expect(tally.value == 10 && tally.tags == ["x"])
    #expect(try lua.run("return t:count({ 'a', 'b', 'a' })") == [2])
    #expect(tally.totals == ["a": 2, "b": 1])
    #expect(lua.stackTop == 0)
  }

  @Test func aBadArgumentNamesItsPositionAndTheMethod() throws {
    for (code, expected) in [
      ("t:add('x')", "bad argument #1 to 'add' (integer expected, got string)"),
      ("t:add(1, {})", "bad argument #2 to 'add' (string expected, got table)"),
      ("t:add()", "bad argument #1 to 'add' (integer expected, got nil)"),
      ("t:count({ {} })", "bad argument #1 to 'count' (string expected, got table)"),
      ("t.add(1, 2)", "bad self: Tally expected, got number"),
      ("t.reset()", "bad self: Tally expected, got no value"),
    ] {
      let error = try #require(throws: LuaError.self, "\(code)") { try lua.run(code) }
      #expect(error.kind == .runtime, "\(code)")
      #expect(error.message.contains(expected), "\(code): \(error.message)")
    }
    // A Lua error like any other: pcall catches it.
    #expect(try lua.run("return pcall(t.add, t, 'x')").first == false)
    #expect(tally.value == 0)
  }

  @Test func aMethodReturningNothingGivesNoResultAndATupleSeveral() throws {
    tally.value = 7
    #expect(try lua.run("return t:split(2)") == [3, 1])
    #expect(try lua.run("return select('#', t:reset())") == [0])
    #expect(tally.value == 0)
  }

  @Test func typedPropertiesConvertBothWays() throws {
    try lua.run("t.value = 41; t.value = t.value + 1")
    #expect(tally.value == 42)
    #expect(try lua.run("return math.type(t.value)") == ["integer"])
    let error = try #require(throws: LuaError.self) { try lua.run("t.value = 'many'") }
    #expect(error.kind == .runtime)
    #expect(
      error.message.contains(
        "bad value for property 'value' of Tally (integer expected, got string)"),
      "\(error.message)")
    let float = try #require(throws: LuaError.self) { try lua.run("t.value = 1.5") }
    #expect(float.message.contains("number has no integer representation"))
    let readOnly = try #require(throws: LuaError.self) { try lua.run("t.tags = {}") }
    #expect(readOnly.message.contains("cannot set read-only property 'tags' of Tally"))
    #expect(tally.value == 42)
  }

  @Test func gettersReturnTables() throws {
    tally.tags = ["a", "b"]
    tally.totals = ["a": 2, "b": 1]
    #expect(
      try lua.run("local tags = t.tags; return type(tags), #tags, tags[1], tags[2]")
        == ["table", 2, "a", "b"])
    #expect(try lua.run("return t.totals.a, t.totals.b, t.totals.c") == [2, 1, .nil])
    // Each read makes a new table: changing one does not change the object.
    #expect(try lua.run("t.tags[1] = 'z'; return t.tags[1]") == ["a"])
    // Built by hand, with the state.
    #expect(try lua.run("return t.described.tags[2], t:snapshot().value") == ["b", 0])
    // Raw reads (completion, pretty printing) see typed properties too.
    let userdata = try lua.globals().get("t")
    #expect(lua.rawField(of: userdata, "value") == 0)
    #expect(lua.fieldNames(of: userdata).contains("split"))
    #expect(lua.stackTop == 0)
  }

  /// A method's or a property read's `self` stays alive while the call runs even when
  /// the script has dropped every other reference to it and collected, called its `__gc`
  /// by hand, or cleared it from the method's own C frame with `debug.setlocal` and
  /// collected (the debug library reaches all of it; a receiver lent without a pin was
  /// freed there), also nested deeper than the stack of lendings; it is released once
  /// the call ends, and whatever the call keeps outlives it as usual.
  @Test func aLentReceiverLivesThroughItsCall() throws {
    final class Probe { var value = 7 }
    let other = try LuaState()
    weak var weakProbe: Probe?
    var kept: [Probe] = []
    try other.register(Probe.self, name: "Probe") { type in
      type.method("finalizeByHand") { (probe: Probe, lua: LuaState) -> Int in
        let retains = _getRetainCount(probe)
        try lua.run(
          "local x = p; p = nil; debug.getmetatable(x).__gc(x); x = nil; collectgarbage()")
        #expect(_getRetainCount(probe) == retains, "released while its method ran")
        return probe.value
      }
      // Clears the userdata from every frame that holds it, the method's C frame too,
      // and collects: the box is freed, and its finalizer runs, while the method runs.
      type.method("clearFromFrames") { (probe: Probe, lua: LuaState) -> Int in
        let retains = _getRetainCount(probe)
        try lua.run(
          """
          local x = p; p = nil
          local level = 2
          while debug.getinfo(level, "l") do
            local i = 1
            while true do
              local name, value = debug.getlocal(level, i)
              if name == nil then break end
              if rawequal(value, x) then debug.setlocal(level, i, nil) end
              i = i + 1
            end
            level = level + 1
          end
          x = nil; collectgarbage(); collectgarbage()
          """)
        #expect(_getRetainCount(probe) == retains, "released while its method ran")
        return probe.value
      }
      // Calls itself `levels` deep, past the stack of lendings (where receivers are
      // retained), and finalizes its box by hand at the bottom.
      type.method("nest") { (probe: Probe, lua: LuaState, levels: Int) -> Int in
        let retains = _getRetainCount(probe)
        if levels == 0 {
          try lua.run("local x = p; p = nil; debug.getmetatable(x).__gc(x)")
        } else {
          let inner = try lua.load("local probe, levels = ... return probe:nest(levels)")
          #expect(try inner.call(lua.userdata(probe), .integer(Int64(levels - 1))) == [7])
        }
        // The innermost calls retain their receivers (past the stack of lendings); the box's
        // release waits for the outer ones, which have it lent.
        #expect(_getRetainCount(probe) == retains, "released while lent")
        return probe.value
      }
      type.method("keep") { (probe: Probe, lua: LuaState) -> Int in
        try lua.run("p = nil; collectgarbage(); collectgarbage()")
        kept.append(probe)
        return probe.value
      }
      type.property(
        "value",
        get: { (probe: Probe, lua: LuaState) -> Int in
          try lua.run("p = nil; collectgarbage(); collectgarbage()")
          return probe.value
        })
    }
    func pushProbe() throws {
      let probe = Probe()
      weakProbe = probe
      try other.globals().set("p", other.userdata(probe))
    }
    // Only the call's own stack holds the userdata once the getter has run its script.
    try pushProbe()
    #expect(try other.run("return p.value") == [7])
    try other.run("collectgarbage(); collectgarbage()")
    #expect(weakProbe == nil, "released once its userdata is collected")
    try pushProbe()
    #expect(try other.run("return p:finalizeByHand()") == [7])
    try other.run("collectgarbage(); collectgarbage()")
    #expect(weakProbe == nil, "released once, by the collector's own finalizer or by hand")
    try pushProbe()
    #expect(try other.run("return p:clearFromFrames()") == [7])
    try other.run("collectgarbage(); collectgarbage()")
    #expect(weakProbe == nil, "released once the method ended")
    try pushProbe()
    #expect(try other.run("return p:nest(24)") == [7])
    try other.run("collectgarbage(); collectgarbage()")
    #expect(weakProbe == nil, "released once the outermost call ended")
    try pushProbe()
    #expect(try other.run("return p:keep()") == [7])
    try other.run("collectgarbage(); collectgarbage()")
    #expect(weakProbe != nil, "kept by the method")
    kept.removeAll()
    #expect(weakProbe == nil)
  }

  /// An object whose userdata's `__gc` was called by hand gets a new userdata when it is
  /// pushed again: the cache kept handing out the released one, which every access refused
  /// (so did a new object at the freed one's address; a hostile review).
  @Test func anObjectReleasedByHandIsPushedAfresh() throws {
    final class Probe { var value = 7 }
    let lua = try LuaState()
    try lua.register(Probe.self, name: "Probe") { type in
      type.property("value", get: { (probe: Probe) in probe.value })
    }
    let probe = Probe()
    try lua.globals().set("p", lua.userdata(probe))
    try lua.run("debug.getmetatable(p).__gc(p)")
    #expect(throws: LuaError.self) { try lua.run("return p.value") }
    try lua.globals().set("q", lua.userdata(probe))
    #expect(try lua.run("return q.value, rawequal(p, q)") == [7, false])
    #expect(try lua.run("return q.value") == [7])
  }

  /// A registered class's methods work on a subclass's objects (a subclass gets its own
  /// metatable, so they are reached through the base's functions: the lent receiver's
  /// dynamic cast), and refuse another class's.
  @Test func methodsWorkOnSubclassesAndRefuseOtherClasses() throws {
    class Base { var value = 1 }
    final class Sub: Base {}
    final class Other {}
    let other = try LuaState()
    try other.register(Base.self, name: "Base") { type in
      type.method("bump") { (base: Base) -> Int in
        base.value += 1
        return base.value
      }
    }
    let (base, sub, stranger) = (Base(), Sub(), Other())
    try other.globals().set("b", other.userdata(base))
    try other.globals().set("s", other.userdata(sub))
    try other.globals().set("o", other.userdata(stranger))
    #expect(try other.run("return b:bump(), b.bump(s), b.bump(s)") == [2, 2, 3])
    #expect(sub.value == 3)
    let error = try #require(throws: LuaError.self) { try other.run("return b.bump(o)") }
    #expect(error.message.contains("bad self: Base expected, got"), "\(error.message)")
    withExtendedLifetime((base, sub, stranger)) {}
  }
}
