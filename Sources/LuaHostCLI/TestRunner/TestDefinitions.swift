import Lua
import LuaHost

/// The editor definitions of what `luahost test` adds to a test's globals (`test`,
/// `describe`, `expect`, `compile`): the names are read from a real test environment
/// after ``TestPrelude`` ran, and take their types and summaries from here.
enum TestDefinitions {
  /// Adds the test API to `definitions` as their testing file.
  /// - Throws: `LuaError` if the test environment cannot be made.
  static func add(to definitions: inout LuaDefinitions) throws {
    let environment = try TestEnvironment(options: TestRunner.Options())
    try environment.tree.withState { lua in
      let before = try globalNames(of: lua)
      _ = try environment.installTestAPI()
      let added = try globalNames(of: lua).subtracting(before).sorted()
      try definitions.addTestingGlobals(
        added, of: lua, documentation: documentation, summaries: summaries, tables: tables)
    }
  }

  private static func globalNames(of lua: LuaState) throws -> Set<String> {
    Set(
      try lua.globals().pairs().compactMap {
        if case .string(let name) = $0.key { name.description } else { nil }
      })
  }

  static let summaries: [String: String] = [
    "test": "Registers a test: test(name, fn). Each test runs in a fresh sandbox and app tree.",
    "expect":
      "Assertions: each raises a test failure that says what was expected and what happened.",
    "TestAlert": "An alert as the test API returns it: with the id of the boundary that shows it.",
  ]

  private static let within = "within?: number"

  static let documentation: [String: LuaDoc] = [
    "test()": .function(["name: string", "fn: fun()"], "Registers a test."),
    "test.skip": .function(
      ["name: string", "fn?: fun()"], "Registers a test that is reported as skipped."),
    "_G.describe": .function(
      ["name: string", "fn: fun()"],
      "Groups the tests fn registers: their names start with name."),
    "_G.compile": .function(
      ["source: string", "name?: string"], returns: ["function"],
      "Compiles source as a chunk: a syntax error is raised as one (for expect.error(fn, \"syntax\"))."
    ),
    "expect.eq": .function(
      ["actual: any", "expected: any", "label?: string"],
      "Passes when actual equals expected, deeply for tables; the failure lists each differing path."
    ),
    "expect.truthy": .function(
      ["value: any", "label?: string"], "Passes when value is neither nil nor false."),
    "expect.alert": .function(
      [
        "fn?: fun()",
        "spec?: { title?: string, message?: string, path?: string, boundary?: string, dismiss?: string, count?: integer, actions?: string[], chain?: string, \(within) }",
      ], returns: ["TestAlert"],
      "Passes when running fn raises exactly one alert matching spec, now or within spec.within seconds (2); returns it."
    ),
    "expect.no_alert": .function(
      ["fn?: fun()", "options?: { \(within) }"],
      "Passes when running fn raises no alert; with no fn, when no alert is up now."),
    "expect.reaches": .function(
      ["fn: fun()", "boundary: string"], returns: ["TestAlert"],
      "Passes when the error fn raises stops at that boundary and no other shows an alert; returns the alert."
    ),
    "expect.error": .function(
      ["fn: fun()", "wanted?: string", "options?: { \(within) }"], returns: ["any"],
      "Passes when fn raises an error matching the pattern, or of a kind: timeout, memory, syntax, instructions, runtime, swift."
    ),
  ]

  static let tables: [(name: String, parent: String?, fields: [String: LuaDoc])] = [
    (
      "TestAlert", "Alert",
      ["boundary": LuaDoc("string", "The id of the boundary that shows the alert.")]
    )
  ]
}
