import Lua
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

private enum Priority: String, Codable, Equatable { case low, high }

private struct Author: Codable, Equatable {
  var name: String
  var born: Int16
}

private struct Note: LuaCodable, Equatable {
  var title: String
  var tags: [String]
  var priority: Priority
  var due: Date?
  var author: Author?
}

private struct Notebook: Codable, Equatable {
  var name: String
  var notes: [Note]
}

private enum Shape: Codable, Equatable {
  case circle(radius: Double)
  case rect(Int, Int)
  case point
}

private struct Counts: Codable, Equatable {
  var count: Int
  var level: UInt8
}

private final class Chain: Decodable {
  let name: String
  let next: Chain?
}

private struct Tree: Decodable {
  var children: [Tree]
}

private final class Loop: Encodable {
  var name = "loop"
  var next: Loop?
}

private struct Strict: Decodable {
  var title: String
  init(from decoder: any Decoder) throws {
    enum Keys: CodingKey { case title }
    let container = try decoder.container(keyedBy: Keys.self)
    title = try container.decode(String.self, forKey: .title)
    if title.isEmpty {
      throw DecodingError.dataCorruptedError(
        forKey: .title, in: container, debugDescription: "must not be empty")
    }
  }
}

private struct Refusal: Error, Equatable {}

private struct Refusing: Decodable {
  init(from decoder: any Decoder) throws { throw Refusal() }
}

private struct Maybe: Codable, Equatable {
  var title: String?
  var size: Int?
}

private class Base: Codable {
  var id = 7
}

private final class Derived: Base {
  var extra = "x"
  private enum Keys: CodingKey { case extra }
  override init() { super.init() }
  required init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    extra = try container.decode(String.self, forKey: .extra)
    try super.init(from: container.superDecoder())
  }
  override func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(extra, forKey: .extra)
    try super.encode(to: container.superEncoder())
  }
}

@Suite(.timeLimit(.minutes(30))) struct CodableTests {
  let lua: LuaState
  init() throws { lua = try LuaState() }

  private let note = Note(
    title: "milk", tags: ["shop", "today"], priority: .high,
    due: Date(timeIntervalSince1970: 1_700_000_000), author: Author(name: "ada", born: 1815))

  /// The `conversion` error of decoding `code`'s result as `T` (the stack left balanced).
  private func failure<T: Decodable>(
    _ type: T.Type, _ code: String, decoder: LuaDecoder = LuaDecoder()
  ) throws -> LuaError {
    let value = try lua.run("return " + code)[0]
    let error = try #require(throws: LuaError.self) { try T(luaValue: value, decoder: decoder) }
    #expect(error.kind == .conversion)
    #expect(lua.stackTop == 0)
    return error
  }

  @Test func nestedStructsRoundTripThroughLua() throws {
    let book = Notebook(name: "home", notes: [note, Note(title: "b", tags: [], priority: .low)])
    try lua.globals().set("book", try lua.push(book))
    let seen = try lua.run(
      """
      local n = book.notes[1]
      return #book.notes, n.title, n.tags[2], n.priority, n.author.name,
        math.type(n.author.born), book.notes[2].due
      """)
    #expect(seen == [2, "milk", "today", "high", "ada", "integer", .nil])
    let back = try Notebook(luaValue: try lua.run("return book")[0])
    #expect(back == book)
    #expect(lua.stackTop == 0)
  }

  @Test func encodedValuesAreReadableFromLua() throws {
    try lua.globals().set("note", try lua.push(note))
    #expect(try lua.run("return note.title") == ["milk"])
    #expect(try lua.push("text") == "text")
    #expect(try lua.push(42) == .integer(42))
    #expect(try lua.push(Int?.none) == .nil)
  }

  @Test func valuesMadeInLuaDecode() throws {
    let value = try lua.run(
      """
      return {name = "lua", notes = {
        {title = "one", tags = {"a"}, priority = "low", due = 1700000000.5,
         author = {name = "b", born = 2.0}},
      }}
      """)[0]
    let book = try Notebook(luaValue: value)
    #expect(book.notes[0].due == Date(timeIntervalSince1970: 1_700_000_000.5))
    #expect(book.notes[0].author == Author(name: "b", born: 2))
    #expect(try LuaDecoder().decode(Notebook.self, from: value) == book)
  }

  @Test func enumsUseRawValuesAndTheSynthesizedKeyedForm() throws {
    try lua.globals().set("shapes", try lua.push([Shape.circle(radius: 1.5), .rect(2, 3), .point]))
    let seen = try lua.run(
      "return shapes[1].circle.radius, shapes[2].rect._1, type(shapes[3].point)")
    #expect(seen == [.number(1.5), 3, "table"])
    let back = try [Shape](luaValue: try lua.run("return shapes")[0])
    #expect(back == [.circle(radius: 1.5), .rect(2, 3), .point])
    #expect(try lua.push(Priority.high) == "high")
    let bad = try failure(Note.self, "{title = 'x', tags = {}, priority = 'urgent'}")
    #expect(bad.message.hasPrefix("priority: "))
    #expect(bad.message.contains("urgent"))
  }

  @Test func optionalsAreAbsentOrNil() throws {
    let empty = try lua.push(Maybe())
    guard case .table(let table) = empty else {
      Issue.record("not a table: \(empty)")
      return
    }
    #expect(try table.pairs().isEmpty)
    #expect(try Maybe(luaValue: empty) == Maybe())
    #expect(try Maybe(luaValue: lua.push(Maybe(title: "t", size: 3))) == Maybe(title: "t", size: 3))
    #expect(try Maybe(luaValue: lua.run("return {size = 4}")[0]) == Maybe(size: 4))
    let holes: [Int?] = [1, nil, 3]
    #expect(try [Int?](luaValue: lua.push(holes), decoder: LuaDecoder()) == holes)

    var nulls = LuaEncoder()
    nulls.nilEncodingStrategy = .null
    guard case .table(let kept) = try lua.push(Maybe(size: 1), encoder: nulls) else {
      Issue.record("not a table")
      return
    }
    #expect(try kept.rawGet("title") == LuaEncoder.null)
    #expect(try Maybe(luaValue: .table(kept)) == Maybe(size: 1))
    let trailing: [Int?] = [1, nil]
    #expect(
      try [Int?](luaValue: lua.push(trailing, encoder: nulls), decoder: LuaDecoder()) == trailing)
    #expect(try [Int?](luaValue: lua.push(trailing), decoder: LuaDecoder()) == [1])  // lost
  }

  @Test func datesAreNumbersByDefault() throws {
    let whole = try lua.push(Date(timeIntervalSince1970: 1_700_000_000))
    #expect(try lua.load("return math.type(...)").call(whole) == ["integer"])
    #expect(whole == .integer(1_700_000_000))
    #expect(try lua.push(Date(timeIntervalSince1970: 0.25)) == .number(0.25))
    #expect(try Date(luaValue: lua.run("return 86400")[0]) == Date(timeIntervalSince1970: 86400))

    var milliseconds = LuaEncoder()
    milliseconds.dateEncodingStrategy = .millisecondsSince1970
    #expect(try lua.push(Date(timeIntervalSince1970: 2), encoder: milliseconds) == 2000)
    var iso = LuaEncoder()
    iso.dateEncodingStrategy = .iso8601
    let text = try lua.push(Date(timeIntervalSince1970: 1_700_000_000), encoder: iso)
    #expect(text == "2023-11-14T22:13:20Z")
    var isoDecoder = LuaDecoder()
    isoDecoder.dateDecodingStrategy = .iso8601
    #expect(
      try Date(luaValue: text, decoder: isoDecoder) == Date(timeIntervalSince1970: 1_700_000_000))
    let wrong = try failure(Note.self, "{title = 'x', tags = {}, priority = 'low', due = 'soon'}")
    #expect(wrong.message == "due: number expected, got string")
  }

  @Test func dataIsAStringOfBytes() throws {
    let bytes = Data([0x00, 0xFF, 0x41])
    let value = try lua.push(bytes)
    #expect(value == .string(LuaString(bytes: [0x00, 0xFF, 0x41])))
    #expect(try Data(luaValue: value) == bytes)
    #expect(try Data(luaValue: lua.run("return '\\xfe\\xff'")[0]) == Data([0xFE, 0xFF]))
  }

  @Test func arraysAndDictionariesAreToldApart() throws {
    let shaped = try failure(
      Notebook.self, "{name = 'x', notes = {first = {title = 'a', tags = {}, priority = 'low'}}}")
    #expect(shaped.message == "notes: array expected, got table with key \"first\"")
    let context = try #require(shaped.underlying(as: DecodingError.self))
    guard case .typeMismatch(_, let detail) = context else {
      Issue.record("got \(context)")
      return
    }
    #expect(detail.codingPath.map(\.stringValue) == ["notes"])

    let mixed = try failure([Int].self, "{1, 2, x = 3}")
    #expect(mixed.message == "array expected, got table with key \"x\"")
    let zero = try failure([Int].self, "{[0] = 1, 2}")
    #expect(zero.message == "array expected, got table with key 0")
    let sparse = try failure([Int?].self, "{1, [1000000] = 2}")
    #expect(sparse.message.hasPrefix("array expected, got sparse table"))

    let decoder = LuaDecoder()
    #expect(try decoder.decode([Int].self, from: lua.run("return {}")[0]) == [])
    #expect(try decoder.decode([String: Int].self, from: lua.run("return {}")[0]) == [:])
    let dictionary = ["a": 1, "b": 2]
    #expect(try decoder.decode([String: Int].self, from: lua.push(dictionary)) == dictionary)
    let numeric = ["1": "one", "x": "ex"]
    try lua.globals().set("numeric", try lua.push(numeric))
    #expect(try lua.run("return numeric['1'], numeric[1]") == ["one", .nil])
    #expect(
      try decoder.decode([String: String].self, from: lua.run("return numeric")[0]) == numeric)
    let sequence = try failure([String: [String: Int]].self, "{x = {1, 2}}")
    #expect(sequence.message == "x: string keys expected, got table with key 1")
    #expect(try lua.load("local t = ... return t.a + t.b").call(lua.push(dictionary)) == [3])
    let notTable = try failure(Notebook.self, "'book'")
    #expect(notTable.message == "table expected, got string")
  }

  @Test func integerKeysStayIntegers() throws {
    let sparse = [3: "c", 10: "j"]
    try lua.globals().set("t", try lua.push(sparse))
    #expect(
      try lua.run("return t[3], t[10], t['3'], math.type(next(t))") == ["c", "j", .nil, "integer"])
    let decoder = LuaDecoder()
    let made = try lua.run("return {[7] = 'g', [-1] = 'm'}")[0]
    #expect(try decoder.decode([Int: String].self, from: made) == [7: "g", -1: "m"])
    #expect(try decoder.decode([Int: String].self, from: lua.run("return t")[0]) == sparse)
    let named = try failure([Int: String].self, "{x = 'y'}")
    #expect(named.message.hasPrefix("x: "))
  }

  @Test func integersAreExactAndInRange() throws {
    #expect(
      try Counts(luaValue: lua.run("return {count = 2.0, level = 255}")[0])
        == Counts(count: 2, level: 255))
    let fraction = try failure(Counts.self, "{count = 2.5, level = 1}")
    #expect(fraction.message == "count: number 2.5 has no integer representation")
    let range = try failure(Counts.self, "{count = 1, level = 300}")
    #expect(range.message == "level: integer 300 does not fit UInt8")
    let negative = try failure([UInt].self, "{1, -1}")
    #expect(negative.message == "[2]: integer -1 does not fit UInt")
    let huge = try #require(throws: LuaError.self) { try lua.push(["n": UInt64.max]) }
    #expect(huge.kind == .conversion)
    #expect(huge.message == "n: UInt64 18446744073709551615 does not fit a Lua integer")
    #expect(try Double(luaValue: .integer(3), decoder: LuaDecoder()) == 3.0)
    let strictBool = try failure(Bool.self, "1")
    #expect(strictBool.message == "boolean expected, got number")
  }

  @Test func errorsNameTheCodingPath() throws {
    let value = try lua.run(
      """
      return {name = "n", notes = {
        {title = "a", tags = {}, priority = "low"},
        {title = 5, tags = {}, priority = "low"},
      }}
      """)[0]
    let error = try #require(throws: LuaError.self) { try Notebook(luaValue: value) }
    #expect(error.kind == .conversion)
    #expect(error.message == "notes[2].title: string expected, got number")
    let missing = try failure(
      Notebook.self, "{name = 'n', notes = {{tags = {}, priority = 'low'}}}")
    #expect(missing.message == "notes[1].title: string expected, got nil")
    guard case .keyNotFound(let key, _)? = missing.underlying(as: DecodingError.self) else {
      Issue.record("expected keyNotFound, got \(String(describing: missing.underlying))")
      return
    }
    #expect(key.stringValue == "title")
    let odd = try failure([String: Int].self, "{['two words'] = 'x'}")
    #expect(odd.message == "[\"two words\"]: integer expected, got string")
  }

  @Test func errorsThrownByTheTypesOwnCodeKeepThePath() throws {
    let empty = try failure([Strict].self, "{{title = 'ok'}, {title = ''}}")
    #expect(empty.message == "[2].title: must not be empty")
    let refused = try failure([String: Refusing].self, "{x = {}}")
    #expect(refused.message.hasPrefix("x: "))
    #expect(refused.underlying(as: Refusal.self) == Refusal())
  }

  @Test func invalidUTF8IsAConversionError() throws {
    let error = try failure(Note.self, "{title = '\\xff\\xfe', tags = {}, priority = 'low'}")
    #expect(error.message == "title: string is not valid UTF-8")
  }

  @Test func aSelfReferencingTableStopsAtTheDepthLimit() throws {
    let loop = try failure(
      Chain.self, "(function() local t = {name = 'loop'} t.next = t return t end)()")
    #expect(loop.message.contains("nested deeper than 200 levels"))
    #expect(loop.message.count < 200)
    let tree = try failure(Tree.self, "(function() local t = {} t.children = {t} return t end)()")
    #expect(tree.message.contains("nested deeper than 200 levels"))

    var shallow = LuaDecoder()
    shallow.maxDepth = 2
    let chain = "{name = 'a', next = {name = 'b', next = {name = 'c', next = {name = 'd'}}}}"
    let deep = try failure(Chain.self, chain, decoder: shallow)
    #expect(deep.message == "next.next.next: nested deeper than 2 levels (LuaDecoder.maxDepth)")
    shallow.maxDepth = 3
    #expect(
      try Chain(luaValue: lua.run("return " + chain)[0], decoder: shallow).next?.next?.next?.name
        == "d")
  }

  @Test func aClassGraphThatLoopsStopsAtTheEncodersDepthLimit() throws {
    let loop = Loop()
    loop.next = loop
    defer { loop.next = nil }
    let error = try #require(throws: LuaError.self) { try lua.push(loop) }
    #expect(error.kind == .conversion)
    #expect(error.message.hasSuffix(": nested deeper than 200 levels (LuaEncoder.maxDepth)"))
    guard case .invalidValue(_, let context)? = error.underlying(as: EncodingError.self) else {
      Issue.record("expected an EncodingError, got \(String(describing: error.underlying))")
      return
    }
    #expect(context.codingPath.count == 201)
    #expect(lua.stackTop == 0)
  }

  @Test func codingWorksUnderTheStatesLock() throws {
    lua.confine()
    let back = try lua.withLock { lua in try Note(luaValue: lua.push(note)) }
    #expect(back == note)
  }

  @Test func decodingRunsNoMetamethods() throws {
    var sandbox = LuaSandbox()
    sandbox.timeout = .seconds(30)  // a metamethod run by mistake fails the test, not hangs it
    let lua = try LuaState(sandbox: sandbox)
    let hostile = try lua.run(
      """
      local spin = function() called = true while true do end end
      local t = setmetatable({}, {__index = spin, __pairs = spin, __len = spin})
      return t, setmetatable({1, 2}, getmetatable(t))
      """)
    #expect(try Maybe(luaValue: hostile[0]) == Maybe())
    #expect(try [Int](luaValue: hostile[1], decoder: LuaDecoder()) == [1, 2])
    #expect(try [String: Int](luaValue: hostile[0], decoder: LuaDecoder()) == [:])
    let error = try #require(throws: LuaError.self) { try Note(luaValue: hostile[0]) }
    #expect(error.message == "title: string expected, got nil")
    #expect(try lua.run("return called") == [.nil])
  }

  @Test func luaConvertibleConversionsStayChosen() throws {
    // The LuaConvertible initializers follow Lua's conversions; the Codable ones would not.
    #expect(try String(luaValue: .integer(5)) == "5")
    #expect(try [UInt8](luaValue: "ab") == [0x61, 0x62])
    #expect(try [Int](luaValue: lua.run("return {1, 2, x = 3}")[0]) == [1, 2])  // 1…#t only
    func convert<T: LuaConvertible>(_ value: LuaValue, to type: T.Type) throws -> T {
      try T(luaValue: value)
    }
    #expect(try convert(.integer(5), to: String.self) == "5")
    #expect(try [String](luaValue: lua.run("return {1, 'x'}")[0]) == ["1", "x"])
    #expect(throws: LuaError.self) { try String(luaValue: .integer(5), decoder: LuaDecoder()) }
  }

  @Test func luaCodableTypesWorkInRegisteredFunctions() throws {
    try lua.register("shout") { (note: Note) in
      Note(title: note.title.uppercased(), tags: note.tags, priority: note.priority)
    }
    #expect(
      try lua.run("return shout({title = 'milk', tags = {}, priority = 'low'}).title") == ["MILK"])
    let error = try #require(throws: LuaError.self) {
      try lua.run("return shout({title = 'x', tags = {7}, priority = 'low'})")
    }
    #expect(error.message.contains("bad argument #1 (tags[1]: string expected, got number)"))
    #expect(try Note(luaValue: lua.value(note)) == note)
  }

  @Test func superEncodersNestUnderSuper() throws {
    let value = try lua.push(Derived())
    #expect(try lua.load("local v = ... return v.extra, v.super.id").call(value) == ["x", 7])
    let back = try Derived(luaValue: lua.run("return {extra = 'y', super = {id = 9}}")[0])
    #expect(back.extra == "y" && back.id == 9)
  }

  @Test func encodingPastTheMemoryLimitIsAMemoryError() throws {
    var sandbox = LuaSandbox()
    sandbox.memoryLimit = 1 << 20
    let small = try LuaState(sandbox: sandbox)
    let big = (0..<20_000).map { "\($0) " + String(repeating: "x", count: 100) }
    let error = try #require(throws: LuaError.self) { try small.push(["rows": big]) }
    #expect(error.kind == .memory)
    #expect(small.stackTop == 0)
    small.collectGarbage()
    #expect(try small.run("return 1 + 1") == [2])
    #expect(try small.push(["rows": Array(big.prefix(10))]) != .nil)
  }
}

/// A hostile table that holds one row a thousand times: decoding it in full would build a
/// million values from a few KiB of Lua; the budget stops it with the path.
@Suite(.timeLimit(.minutes(30))) struct CodableBudgetTests {
  struct Rows: Codable { var rows: [[Int]] }

  @Test func aSharedSubtableCannotMultiplyTheWork() throws {
    let lua = try LuaState(sandbox: LuaSandbox())
    let value = try lua.run(
      "local row = {} for i = 1, 1000 do row[i] = i end local rows = {} for i = 1, 1000 do rows[i] = row end return { rows = rows }"
    )[0]
    var decoder = LuaDecoder()
    decoder.maxValues = 100_000
    let error = try #require(throws: LuaError.self) {
      _ = try decoder.decode(Rows.self, from: value)
    }
    #expect(error.kind == .conversion)
    #expect(
      error.message.contains("more than 100000 values (LuaDecoder.maxValues)"), "\(error.message)")
    // Within the default budget it decodes: a million values is allowed.
    #expect(try LuaDecoder().decode(Rows.self, from: value).rows.count == 1000)
  }
}
