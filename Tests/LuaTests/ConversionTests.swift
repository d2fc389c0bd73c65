import Lua
import Testing

@Suite(.timeLimit(.minutes(30))) struct ConversionTests {
  let lua: LuaState
  init() throws { lua = try LuaState() }

  /// Sends a value into Lua (as a global) and reads it back out.
  func roundTrip(_ value: LuaValue) throws -> LuaValue {
    try lua.globals().set("v", value)
    return try lua.run("return v").first ?? .nil
  }

  @Test func scalarsKeepTheirLuaTypes() throws {
    #expect(try roundTrip(.nil) == .nil)
    #expect(try roundTrip(true) == .boolean(true))
    let integer = try roundTrip(.integer(Int64.max))
    guard case .integer(Int64.max) = integer else {
      Issue.record("got \(integer)")
      return
    }
    let float = try roundTrip(.number(2.0))
    guard case .number(2.0) = float else {
      Issue.record("got \(float)")
      return
    }
    let types = try lua.load("local a, b = ... return math.type(a), math.type(b)")
      .call(.integer(3), .number(3))
    #expect(types == ["integer", "float"])
  }

  @Test func stringsAreBinarySafe() throws {
    let bytes: [UInt8] = [0x61, 0x00, 0x62, 0xFF, 0xFE, 0x00]
    let value = try roundTrip(.string(LuaString(bytes: bytes)))
    guard case .string(let s) = value else {
      Issue.record("not a string")
      return
    }
    #expect(s.bytes == bytes)
    #expect(s.string == nil)  // invalid UTF-8 has no String view
    #expect(try lua.load("return #...").call(value) == [.integer(6)])
    #expect(try String(luaValue: roundTrip("héllo ✓")) == "héllo ✓")
    let invalid = try #require(throws: LuaError.self) { try String(luaValue: value) }
    #expect(invalid.kind == .conversion)
    #expect(invalid.message == "string is not valid UTF-8")
    #expect(try [UInt8](luaValue: value) == bytes)
    #expect(try lua.value(bytes) == value)
  }

  @Test func integerTypesCheckRanges() throws {
    #expect(try Int8(luaValue: .integer(127)) == 127)
    let tooBig = try #require(throws: LuaError.self) { try Int8(luaValue: .integer(128)) }
    #expect(tooBig.kind == .conversion)
    #expect(tooBig.message == "integer 128 does not fit Int8")
    let negative = try #require(throws: LuaError.self) { try UInt(luaValue: .integer(-1)) }
    #expect(negative.kind == .conversion)
    #expect(negative.message == "integer -1 does not fit UInt")
    #expect(try Int(luaValue: .number(4.0)) == 4)
    let fraction = try #require(throws: LuaError.self) { try Int(luaValue: .number(4.5)) }
    #expect(fraction.kind == .conversion)
    #expect(fraction.message == "number has no integer representation")
    #expect(try UInt16(luaValue: roundTrip(try lua.value(UInt16(65535)))) == 65535)
    #expect(try Int32(luaValue: roundTrip(try lua.value(Int32.min))) == Int32.min)
    #expect(try Double(luaValue: .integer(3)) == 3.0)
    #expect(try Float(luaValue: roundTrip(try lua.value(Float(1.5)))) == 1.5)
    #expect(try Bool(luaValue: roundTrip(try lua.value(false))) == false)
  }

  @Test func optionalsMapToNil() throws {
    let none: Int? = nil
    #expect(try lua.value(none) == .nil)
    #expect(try Int?(luaValue: .nil) == nil)
    #expect(try Int?(luaValue: .integer(5)) == 5)
  }

  @Test func arraysAndDictionariesRoundTrip() throws {
    let array = [1, 2, 3, 5, 8]
    let back = try [Int](luaValue: roundTrip(lua.value(array)))
    #expect(back == array)
    #expect(try lua.run("return #v") == [.integer(5)])
    let dictionary = ["a": 1.5, "b": -2.0]
    #expect(try [String: Double](luaValue: roundTrip(lua.value(dictionary))) == dictionary)
    let nested = [["x", "y"], [], ["z"]]
    #expect(try [[String]](luaValue: roundTrip(lua.value(nested))) == nested)
    let strings = try [String](luaValue: lua.run("return {'p', 'q'}")[0])
    #expect(strings == ["p", "q"])
  }

  @Test func cyclicTablesThrowInsteadOfHanging() throws {
    let cyclic = try lua.run("local t = {} t[1] = t return t")[0]
    let nested = try #require(throws: LuaError.self) { try [[LuaValue]](luaValue: cyclic) }
    #expect(nested.kind == .conversion)
    #expect(nested.message.contains("cycle"))
    do {
      _ = try [[[Int]]](luaValue: cyclic)
      Issue.record("expected a cycle error")
    } catch let error as LuaError {
      #expect(error.kind == .conversion)
      #expect(error.message.contains("cycle"))
    }
    // One level never recurses, so it simply works.
    let flat = try [LuaValue](luaValue: cyclic)
    #expect(flat.count == 1 && flat[0] == cyclic)
    let dictionaryCycle = try lua.run("local t = {} t.me = {up = t} return t")[0]
    let throughDictionaries = try #require(throws: LuaError.self) {
      try [String: [String: [String: Int]]](luaValue: dictionaryCycle)
    }
    #expect(throughDictionaries.kind == .conversion)
    #expect(throughDictionaries.message.contains("cycle"))
  }

  @Test func referencesCompareByIdentity() throws {
    let results = try lua.run("local t = {} return t, t, {}")
    #expect(results[0] == results[1])
    #expect(results[0] != results[2])
    #expect(Set(results).count == 2)
    #expect(LuaValue.integer(1) == LuaValue.number(1.0))
    #expect(Set([LuaValue.integer(1), .number(1.0)]).count == 1)
  }

  @Test func floatsPrintLikeLua() throws {
    for (value, text) in [(1.0, "1.0"), (0.1, "0.1"), (1e100, "1e+100"), (-0.5, "-0.5")] {
      #expect(LuaValue.number(value).description == text)
      #expect(try lua.string(describing: .number(value)) == text)
    }
  }

  /// A cut string keeps more bytes than the bound (it shows as cut) and whole characters:
  /// a cut inside one took its first bytes only, and a valid label became invalid UTF-8
  /// (a hostile review: `dismiss = ('é'):rep(2049)` was refused).
  @Test func aCutStringKeepsWholeCharacters() throws {
    let table = try lua.makeTable()
    for character in ["é", "€", "𝄞"] {
      let text = "ab" + String(repeating: character, count: 20)
      try table.rawSet(1, .string(LuaString(text)))
      for bound in 0..<text.utf8.count + 2 {
        let piece = try table.rawGet(1, cuttingStringsAfter: bound)
        guard case .string(let cut) = piece else {
          Issue.record("\(piece)")
          continue
        }
        #expect(text.utf8.starts(with: cut.bytes), "\(character) cut after \(bound)")
        #expect(cut.bytes.count > min(bound, text.utf8.count - 1), "\(character) at \(bound)")
        #expect((try? String(luaValue: piece)) != nil, "\(character) cut after \(bound)")
      }
    }
    // Bytes that are no UTF-8 are cut after the bound and at most three more.
    func length(after bound: Int) throws -> Int? {
      guard case .string(let cut) = try table.rawGet(1, cuttingStringsAfter: bound) else {
        return nil
      }
      return cut.bytes.count
    }
    try table.rawSet(1, .string(LuaString(bytes: [0x41] + Array(repeating: 0x80, count: 9))))
    #expect(try length(after: 0) == 4)
    #expect(try length(after: 1) == 5)
    #expect(try length(after: .max) == 10)
    #expect(try length(after: -5) == 4)
  }

  @Test func tablesReadAndWriteWithAndWithoutMetamethods() throws {
    let table = try lua.run(
      "return setmetatable({}, {__index = function(_, k) return k .. '!' end})")[0]
    guard case .table(let t) = table else {
      Issue.record("not a table")
      return
    }
    #expect(try t.get("x") == "x!")
    #expect(try t.rawGet("x") == .nil)
    try t.set("x", 1)
    #expect(try t["x"] == .integer(1))
    let badKeys: [(LuaValue, String)] = [
      (.nil, "table index is nil"), (.number(.nan), "table index is NaN"),
    ]
    for (key, message) in badKeys {
      let raw = try #require(throws: LuaError.self) { try t.rawSet(key, 1) }
      #expect(raw.kind == .usage)
      #expect(raw.message == message)
    }
    // Through Lua (with metamethods), the key is refused by Lua itself.
    let viaLua = try #require(throws: LuaError.self) { try t.set(.nil, 1) }
    #expect(viaLua.kind == .runtime)
    #expect(viaLua.message.contains("table index is nil"), "\(viaLua.message)")
    #expect(try t.pairs().count == 1)
  }

  /// The collection conversions read and push in place (specialised for their element
  /// types); against a reference made of the per-value conversions they replace, every
  /// table gives the same result or the same error message.
  @Test(arguments: [
    "{1, 2, 3}", "{}", "{1, 2.0, 3}", "{1, 2.5}", "{'a', 'b'}", "{1, nil, 3}", "{a = 1, b = 2}",
    "{[1] = 'x', [2] = 'y', z = 3}", "{['\\255'] = 1}", "{[1.5] = 1}", "{x = {1, 2}}",
    "{[true] = 1}", "{a = 'one'}", "{[10] = 1, [20] = 2}",
    // The one-pass number sequences: strings that look like numbers, floats at and past
    // the integer range, NaN, and a sequence longer than the first allocation.
    "{1, '2'}", "{1, true}", "{2^53, -2^63}", "{2^63}", "{1, 0/0, math.huge}", "{3, 1e308 * 10}",
    "(function() local t = {} for i = 1, 70000 do t[i] = i * 0.5 end return t end)()",
    "(function() local t = {} for i = 1, 70000 do t[i] = i end return t end)()",
  ])
  func collectionsConvertAsTheirElementsDo(table: String) throws {
    let value = try lua.run("return \(table)").first ?? .nil
    func same<T: LuaConvertible & Equatable>(
      _ type: T.Type, _ reference: (LuaValue) throws -> T
    ) {
      let fast = Result { try T(luaValue: value) }
      let slow = Result { try reference(value) }
      switch (fast, slow) {
      case (.success(let a), .success(let b)):  // (NaN is equal to itself in print)
        #expect(a == b || "\(a)" == "\(b)", "\(T.self) from \(table)")
      case (.failure(let a), .failure(let b)):
        #expect("\(a)" == "\(b)", "\(T.self) from \(table)")
      default: Issue.record("\(T.self) from \(table): \(fast) against \(slow)")
      }
    }
    func elements(_ value: LuaValue) throws -> [LuaValue] {
      let table = try LuaTable(luaValue: value)
      let count = try table.length()
      return count == 0 ? [] : try (1...count).map { try table.rawGet(.integer($0)) }
    }
    same([Int].self) { try elements($0).map { try Int(luaValue: $0) } }
    same([Int64].self) { try elements($0).map { try Int64(luaValue: $0) } }
    same([String].self) { try elements($0).map { try String(luaValue: $0) } }
    same([Double].self) { try elements($0).map { try Double(luaValue: $0) } }
    same([String: Int].self) { value in
      var result: [String: Int] = [:]
      for (key, element) in try LuaTable(luaValue: value).pairs() {
        result[try String(luaValue: key)] = try Int(luaValue: element)
      }
      return result
    }
    same([Int: String].self) { value in
      var result: [Int: String] = [:]
      for (key, element) in try LuaTable(luaValue: value).pairs() {
        result[try Int(luaValue: key)] = try String(luaValue: element)
      }
      return result
    }
  }

  /// Pushing a dictionary refuses the keys Lua refuses, as before.
  @Test func dictionariesWithKeysLuaRefusesThrow() throws {
    let nan = try #require(throws: LuaError.self) { try [Double.nan: 1].luaValue(in: lua) }
    #expect(nan.kind == .usage && nan.message == "table index is NaN")
    let none = try #require(throws: LuaError.self) { try [Int?.none: 1].luaValue(in: lua) }
    #expect(none.kind == .usage && none.message == "table index is nil")
    #expect(lua.stackTop == 0)
    let fine = try [1.5: "x", 2: "y"].luaValue(in: lua)
    #expect(try lua.load("local t = ... return t[1.5], t[2]").call(fine) == ["x", "y"])
  }
}
