import Lua
import LuaHost
import Testing

/// Item 2: a component or module with a bad or reserved name is refused where it is made,
/// and the message says what is wrong with the name, not "manifest".
@Suite(.timeLimit(.minutes(10))) struct Item02NamesTests {
  @Test func badAndReservedNamesAreRefusedWhereTheyAreMade() throws {
    for name in ["button", "root", "9lives", "has space", ""] {
      let error = #expect(throws: (any Error).self) { try ScriptedComponent(name) }
      #expect(!"\(error.map { "\($0)" } ?? "")".contains("manifest"), "\(name)")
    }
    #expect(throws: (any Error).self) { try HostModule("string") { _ in .nil } }
    #expect(throws: (any Error).self) { try HostModule("no/slash") { _ in .nil } }
    #expect(try ScriptedComponent("slider").name == "slider")
  }
}
