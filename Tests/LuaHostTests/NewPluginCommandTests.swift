import Foundation
import TestSupport
import Testing

/// `luahost new plugin`, through the real binary: the plugin it makes runs, passes its own
/// tests and the linter as made; bad names and taken folders are refused.
@Suite(.timeLimit(.minutes(30))) struct NewPluginCommandTests {
  func newFolder() throws -> String {
    let folder = try Luahost.temporaryFolder([:])
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
  }

  @Test func theMadePluginRunsAndPassesItsTestsAndTheLinter() throws {
    let plugins = try newFolder()
    defer { try? FileManager.default.removeItem(atPath: plugins) }
    let made = try Luahost.run(["new", "plugin", "hello-world", "--in", plugins])
    #expect(made.status == 0, "\(made.stderr)")
    #expect(made.stderr == "")
    #expect(
      made.stdout
        == "made \(plugins)/hello-world: manifest.lua, init.lua, hello-world_test.lua, .luarc.json, .luacheckrc, .luahost/\n"
        + "test it: luahost test --plugins \(plugins) \(plugins)/hello-world\n")
    let folder = plugins + "/hello-world"
    for file in [
      "manifest.lua", "init.lua", "hello-world_test.lua", ".luarc.json", ".luacheckrc",
      ".luahost/luahost-api.lua", ".luahost/luahost-testing.lua",
    ] {
      #expect(FileManager.default.fileExists(atPath: folder + "/" + file), "\(file)")
    }
    let tests = try Luahost.run(["test", "--plugins", plugins, folder])
    #expect(tests.status == 0, "\(tests.stdout)\(tests.stderr)")
    #expect(tests.stdout.hasSuffix("\n2 passed, 0 failed\n"))
    let run = try Luahost.run([
      "--plugins", plugins, "-e",
      "ui.find('hello-world-tap'):tap() print(ui.find('hello-world-label').text)",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "tapped 1 time\n")
    #expect(run.stderr == "")
    let lint = try Luacheck.run(["."], directory: folder)
    #expect(lint.status != 127, "luacheck is missing: scripts/setup installs lua-check")
    #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
    #expect(lint.stdout.hasSuffix("Total: 0 warnings / 0 errors in 3 files\n"))
  }

  @Test func aBadNameIsAUsageError() throws {
    let plugins = try newFolder()
    defer { try? FileManager.default.removeItem(atPath: plugins) }
    for name in [
      "a/b", ".hidden", "notes.lua", "with space", "", String(repeating: "x", count: 65),
    ] {
      let result = try Luahost.run(["new", "plugin", name, "--in", plugins])
      #expect(result.status == 2, "\(name)")
      #expect(result.stderr.hasPrefix("luahost new: bad plugin name '\(name)': "), "\(name)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: plugins) == [])
    for arguments in [
      ["new"], ["new", "plugin"], ["new", "theme", "x"], ["new", "plugin", "x", "--in"],
    ] {
      #expect(try Luahost.run(arguments).status == 2, "\(arguments)")
    }
    let help = try Luahost.run(["new", "--help"])
    #expect(help.status == 0)
    #expect(help.stdout.hasPrefix("usage: luahost new plugin NAME [--in DIR]\n"))
  }

  @Test func anExistingFolderIsAFailureAndStaysAsItWas() throws {
    let plugins = try newFolder()
    defer { try? FileManager.default.removeItem(atPath: plugins) }
    #expect(try Luahost.run(["new", "plugin", "taken", "--in", plugins]).status == 0)
    try Luahost.temporaryFileContents("-- mine\n", at: plugins + "/taken/init.lua")
    let again = try Luahost.run(["new", "plugin", "taken", "--in", plugins])
    #expect(again.status == 1)
    #expect(
      again.stderr
        == "luahost new: \(plugins)/taken exists already; choose another name or --in\n")
    #expect(
      try String(contentsOfFile: plugins + "/taken/init.lua", encoding: .utf8) == "-- mine\n")
  }
}
