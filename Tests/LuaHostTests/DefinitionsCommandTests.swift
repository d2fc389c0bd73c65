import Foundation
import Lua
import TestSupport
import Testing

/// `luahost definitions`, through the real binary, checked with the real linter (luacheck)
/// and against the reviewed snapshot in `Tests/Fixtures/definitions`.
@Suite(.timeLimit(.minutes(30))) struct DefinitionsCommandTests {
  var root: String {
    Luahost.fixtures.deletingLastPathComponent().deletingLastPathComponent().path
  }

  /// The files every run writes, as the command lists them.
  static let files = [
    ".luarc.json", ".luacheckrc", ".luahost/luahost-api.lua", ".luahost/luahost-testing.lua",
  ]

  /// A new empty folder, and `luahost definitions --output` run into it.
  func generated() throws -> String {
    let folder = try Luahost.temporaryFolder([:])
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let result = try Luahost.run(["definitions", "--output", folder])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "")  // no note: every live name is documented
    #expect(result.stdout == "wrote \(Self.files.joined(separator: ", ")) in \(folder)\n")
    return folder
  }

  func read(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
  }

  @Test func theFilesAreWrittenAndValid() throws {
    let folder = try generated()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for file in Self.files where file.hasSuffix(".lua") || file == ".luacheckrc" {
      let lua = try LuaState(libraries: .all)
      defer { lua.close() }
      _ = try lua.load(read(folder + "/" + file), name: "@" + file)  // compiles: valid Lua
    }
    let api = try read(folder + "/.luahost/luahost-api.lua")
    #expect(api.hasPrefix("---@meta _\n"))
    for declaration in [
      "---@class ui\n", "function ui.find(id) end\n", "function ui.button(spec) end\n",
      "---@class View\n", "---@field title string? ", "function View:add(child, position) end\n",
      "---@field on_tap (fun(self: View))? ", "---@class timer\n",
      "function timer.after(seconds, fn) end\n", "---@class Alert\n",
      "function Alert:choose(button) end\n", "---@class Environment\n",
    ] {
      #expect(api.contains(declaration), "\(declaration)")
    }
    let testing = try read(folder + "/.luahost/luahost-testing.lua")
    #expect(
      testing.contains("---@class test\n---@overload fun(name: string, fn: fun())\ntest = {}\n"))
    #expect(testing.contains("function expect.alert(fn, spec) end\n"))
    let luarc =
      try JSONSerialization.jsonObject(
        with: Data(read(folder + "/.luarc.json").utf8)) as? [String: Any]
    #expect(luarc?["workspace.library"] as? [String] == [".luahost"])
    #expect(luarc?["runtime.version"] as? String == "Lua 5.4")
    #expect((luarc?["runtime.builtin"] as? [String: String])?["io"] == "disable")
  }

  /// To update the snapshot after a reviewed change of the API or its docs:
  /// `swift build && .build/debug/luahost definitions --output Tests/Fixtures/definitions`,
  /// then read `git diff Tests/Fixtures/definitions` before committing it.
  @Test func theOutputMatchesTheReviewedSnapshot() throws {
    let folder = try generated()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for file in Self.files {
      let expected = try read(Luahost.fixture("definitions/" + file))
      let actual = try read(folder + "/" + file)
      #expect(
        actual == expected,
        "\(file) differs from Tests/Fixtures/definitions/\(file); if the change is meant, run `.build/debug/luahost definitions --output Tests/Fixtures/definitions` and review the diff"
      )
    }
  }

  /// The example plugins and tests, beside a generated `.luacheckrc` as in a plugin author's
  /// folder. Left out: `clock.lua` (reads the denied `io` on purpose), `spinner.lua` (hogs
  /// memory on purpose) and `wants_io` (uses `io`, which only its capability grants).
  @Test func luacheckReportsNothingOnTheExamples() throws {
    let folder = try generated()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let copies = [
      ("scripts/examples", "examples"), ("Tests/Fixtures/plugins/greeter", "plugins/greeter"),
      ("Tests/Fixtures/plugins/broken.lua", "plugins/broken.lua"),
      ("Tests/Fixtures/async", "async"),
    ]
    try FileManager.default.createDirectory(
      atPath: folder + "/plugins", withIntermediateDirectories: true)
    for (source, target) in copies {
      try FileManager.default.copyItem(atPath: root + "/" + source, toPath: folder + "/" + target)
    }
    let result = try Luacheck.run(["--codes", "."], directory: folder)
    #expect(result.status != 127, "luacheck is missing: scripts/setup installs lua-check")
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("Checking examples/counter_test.lua"))
    #expect(result.stdout.contains("Checking examples/plugins/counter/init.lua"))
    #expect(!result.stdout.contains(".luahost/"))  // the definitions themselves are left out
    #expect(result.stdout.hasSuffix("Total: 0 warnings / 0 errors in 12 files\n"))
  }

  @Test func luacheckFlagsAPluginsTypos() throws {
    let folder = try generated()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Luahost.temporaryFileContents(
      """
      ui.root:add(ui.buton{ id = "save", title = "Save" })
      timer.slep(1)
      ui.root.titel = "Settings"
      ui.root.kind = "button"
      expect.eq(1, 1)

      """, at: folder + "/typos.lua")
    try Luahost.temporaryFileContents("expect.eqq(1, 1)\n", at: folder + "/typos_test.lua")
    let result = try Luacheck.run(["--codes", "typos.lua", "typos_test.lua"], directory: folder)
    #expect(result.status == 1)
    for warning in [
      "typos.lua:1:13: (W143) accessing undefined field 'buton' of global 'ui'",
      "typos.lua:2:1: (W143) accessing undefined field 'slep' of global 'timer'",
      "typos.lua:3:1: (W142) setting undefined field 'root.titel' of global 'ui'",
      "typos.lua:4:1: (W122) setting read-only field 'root.kind' of global 'ui'",
      "typos.lua:5:1: (W113) accessing undefined variable 'expect'",  // tests only
      "typos_test.lua:1:1: (W143) accessing undefined field 'eqq' of global 'expect'",
    ] {
      #expect(result.stdout.contains(warning), "\(warning)\n\(result.stdout)")
    }
  }

  @Test func withPluginsTheFilesGoInThePluginsFolderWhichStillLoads() throws {
    let folder = try Luahost.temporaryFolder([
      "hello.lua": "ui.root:add(ui.text{ id = \"greeting\", text = \"hi\" })\n"
    ])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let written = try Luahost.run(["definitions", "--plugins", folder])
    #expect(written.status == 0, "\(written.stderr)")
    #expect(FileManager.default.fileExists(atPath: folder + "/.luahost/luahost-api.lua"))
    #expect(FileManager.default.fileExists(atPath: folder + "/.luacheckrc"))
    // The hidden .luahost folder is not taken for a plugin.
    let run = try Luahost.run(["--plugins", folder, "-e", "print(ui.find('greeting').text)"])
    #expect(run.status == 0)
    #expect(run.stdout == "hi\n")
    #expect(run.stderr == "")
  }

  @Test func aConfigOfTheUsersOwnIsLeftAlone() throws {
    let folder = try Luahost.temporaryFolder([".luacheckrc": "std = \"max\"\n"])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try Luahost.run(["definitions", "--output", folder])
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "luahost definitions: cannot write \(folder)/.luacheckrc: it exists and was not generated from the LuaHost API; move it away first\n"
    )
    #expect(try read(folder + "/.luacheckrc") == "std = \"max\"\n")
  }

  @Test func usageErrors() throws {
    let unknown = try Luahost.run(["definitions", "--bogus"])
    #expect(unknown.status == 2)
    #expect(
      unknown.stderr.hasPrefix("luahost definitions: unrecognized argument '--bogus'\nusage:"))
    let missing = try Luahost.run(["definitions", "--plugins", "/nonexistent/plugins"])
    #expect(missing.status == 2)
    #expect(
      missing.stderr.hasPrefix(
        "luahost definitions: --plugins: /nonexistent/plugins is not a directory\n"))
    let help = try Luahost.run(["definitions", "--help"])
    #expect(help.status == 0)
    #expect(help.stdout.hasPrefix("usage: luahost definitions [--plugins DIR] [--output DIR]\n"))
  }
}
