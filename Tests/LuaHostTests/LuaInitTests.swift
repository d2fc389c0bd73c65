import Foundation
import TestSupport
import Testing

/// `LUA_INIT` and `LUA_INIT_5_4`, as `lua` reads them: the versioned name wins, `@file`
/// runs a file, and `-E` ignores both.
@Suite(.timeLimit(.minutes(30))) struct LuaInitTests {
  @Test func versionedNameWinsOverThePlainOne() throws {
    let result = try Luahost.run(
      ["-e", "print(source)"],
      environment: ["LUA_INIT_5_4": "source = 'five four'", "LUA_INIT": "source = 'plain'"])
    #expect(result.status == 0)
    #expect(result.stdout == "five four\n")
    #expect(result.stderr.isEmpty)
  }

  @Test func plainNameRunsWhenTheVersionedOneIsUnset() throws {
    let result = try Luahost.run(
      ["-e", "print(source)"], environment: ["LUA_INIT": "source = 'plain'"])
    #expect(result.status == 0)
    #expect(result.stdout == "plain\n")
  }

  @Test func atFileRunsTheFileBeforeTheScript() throws {
    let file = try Luahost.temporaryFile("loaded = 'from file' print('init ran')\n")
    defer { try? FileManager.default.removeItem(atPath: file) }
    let plain = try Luahost.run(["-e", "print(loaded)"], environment: ["LUA_INIT": "@" + file])
    #expect(plain.status == 0)
    #expect(plain.stdout == "init ran\nfrom file\n")
    let versioned = try Luahost.run(
      ["-e", "print(loaded)"], environment: ["LUA_INIT_5_4": "@" + file, "LUA_INIT": "x = 1"])
    #expect(versioned.stdout == "init ran\nfrom file\n")
  }

  @Test func atFileErrorsNameTheFile() throws {
    let file = try Luahost.temporaryFile("\nerror('init failed')\n")
    defer { try? FileManager.default.removeItem(atPath: file) }
    let result = try Luahost.run(
      ["-e", "print('not reached')"], environment: ["LUA_INIT": "@" + file])
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("luahost: \(file):2: init failed\n"))
  }

  @Test func inlineErrorsAreNamedAfterTheVariable() throws {
    let result = try Luahost.run(
      ["-e", "print('not reached')"], environment: ["LUA_INIT_5_4": "error('bad init')"])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("luahost: LUA_INIT_5_4:1: bad init\n"))
  }

  /// The variable's value starts after its `=` byte, also when a combining mark follows
  /// it (a character-wise search saw no `=`, dropped the variable and ran the script).
  /// So does `-e`'s code, attached to the `e`, and a word of `-` and a mark is an option.
  @Test func anEqualsOrAnOptionLetterBeforeACombiningMarkCounts() throws {
    let initError = try Luahost.run(
      ["-e", "print('not reached')"], environment: ["LUA_INIT": "\u{301}print('x')"])
    #expect(initError.status == 1)
    #expect(initError.stderr == "luahost: LUA_INIT:1: unexpected symbol near '<\\204>'\n")
    let attached = try Luahost.run(["-e\u{301}print(1)"])
    #expect(attached.status == 1)
    #expect(attached.stderr == "luahost: (command line):1: unexpected symbol near '<\\204>'\n")
    let option = try Luahost.run(["-\u{301}"])
    #expect(option.status == 2)
    #expect(option.stderr.hasPrefix("luahost: unrecognized option '-\u{301}'\n"))
  }

  @Test func dashEIgnoresBothVariables() throws {
    let file = try Luahost.temporaryFile("loaded = 'from file'\n")
    defer { try? FileManager.default.removeItem(atPath: file) }
    let result = try Luahost.run(
      ["-E", "-e", "print(loaded, source)"],
      environment: ["LUA_INIT_5_4": "@" + file, "LUA_INIT": "source = 'plain'"])
    #expect(result.status == 0)
    #expect(result.stdout == "nil\tnil\n")
    #expect(result.stderr.isEmpty)
    // Not even a broken one is looked at.
    let broken = try Luahost.run(
      ["-E", "-e", "print('ok')"], environment: ["LUA_INIT_5_4": "error('x')", "LUA_INIT": "("])
    #expect(broken.status == 0)
    #expect(broken.stdout == "ok\n")
  }
}
