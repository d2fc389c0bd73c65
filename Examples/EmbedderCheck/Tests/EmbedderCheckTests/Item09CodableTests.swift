import Foundation
import Lua
import Testing

/// Item 9: any `Codable` type crosses into Lua and back, and a value that does not fit
/// gives an error naming the coding path.
struct Note: Codable, Equatable {
  enum Kind: String, Codable { case todo, idea }
  struct Tag: Codable, Equatable { var name: String }
  var title: String
  var kind: Kind
  var due: Date?
  var tags: [Tag]
  var counts: [String: Int]
}

@Suite(.timeLimit(.minutes(10))) struct Item09CodableTests {
  @Test func notesRoundTripAndBadValuesNameTheirPath() throws {
    let lua = try LuaState(sandbox: patientLimits)
    let note = Note(
      title: "Call the plumber", kind: .todo, due: Date(timeIntervalSince1970: 1_700_000_000),
      tags: [.init(name: "home")], counts: ["views": 3])
    try lua.globals().set("note", try lua.push(note))
    #expect(
      try lua.run("return note.title, note.kind, note.due, note.tags[1].name") == [
        "Call the plumber", "todo", 1_700_000_000, "home",
      ])
    #expect(try Note(luaValue: lua.run("return note")[0]) == note)
    let made = try lua.run(
      "return { title = 'Idea', kind = 'idea', tags = { { name = 7 } }, counts = {} }")[0]
    let error = try #require(throws: LuaError.self) { try Note(luaValue: made) }
    #expect(error.message == "tags[1].name: string expected, got number")
  }
}
