import Foundation
import LuaHost
import LuaHostCLI
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(30))) struct CommandLineTests {
  @Test func runsAFileWithItsArguments() throws {
    let result = try Luahost.run([Luahost.fixture("args.lua"), "one", "two"])
    #expect(result.status == 0)
    #expect(result.stdout == "count\t2\nvarargs\tone\ttwo\narg\targs.lua\tone\ttwo\t2\n")
    #expect(result.stderr.isEmpty)
  }

  @Test func runsAString() throws {
    let result = try Luahost.run(["-e", "print(6 * 7)", "-e", "print(_VERSION)"])
    #expect(result.status == 0)
    #expect(result.stdout == "42\nLua 5.4\n")
  }

  @Test func scriptErrorsExitOneWithMessageAndTraceback() throws {
    let result = try Luahost.run([Luahost.fixture("nested_error.lua")])
    #expect(result.status == 1)
    let lines = result.stderr.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasSuffix("nested_error.lua:3: config has no name") == true)
    #expect(lines.first?.hasPrefix("luahost: ") == true)
    #expect(lines.contains("stack traceback:"))
    #expect(lines.contains { $0.contains("nested_error.lua:8: in local 'load_plugin'") })
    #expect(lines.contains { $0.contains("in main chunk") })
  }

  @Test func syntaxErrorsNameChunkAndLine() throws {
    let result = try Luahost.run([Luahost.fixture("syntax_error.lua")])
    #expect(result.status == 1)
    #expect(result.stderr.contains("syntax_error.lua:2: unexpected symbol near '='"))
    let inline = try Luahost.run(["-e", "x = "])
    #expect(inline.status == 1)
    #expect(inline.stderr.hasPrefix("luahost: (command line):1:"))
  }

  @Test func missingFileIsAUsageError() throws {
    let result = try Luahost.run(["/no/such/script.lua"])
    #expect(result.status == 2)
    #expect(
      result.stderr == "luahost: cannot open /no/such/script.lua: No such file or directory\n")
  }

  @Test func directoryIsAUsageError() throws {
    let result = try Luahost.run([Luahost.fixtures.path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("Is a directory"))
  }

  @Test func badFlagsAreUsageErrors() throws {
    let unknown = try Luahost.run(["--frobnicate"])
    #expect(unknown.status == 2)
    #expect(unknown.stderr.hasPrefix("luahost: unrecognized option '--frobnicate'\nusage: luahost"))
    let missing = try Luahost.run(["-e"])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("'-e' needs argument"))
  }

  @Test func stdinRunsWhenPiped() throws {
    let result = try Luahost.run([], stdin: "print('from stdin', ...)")
    #expect(result.stdout == "from stdin\n")
    let dash = try Luahost.run(["-", "x"], stdin: "print(...)")
    #expect(dash.stdout == "x\n")
  }

  @Test func shebangLinesAreSkippedKeepingLineNumbers() throws {
    let result = try Luahost.run(["--trusted", Luahost.fixture("shebang.lua")])
    #expect(result.stdout == "shebang ok\t2\n")
  }

  @Test func bytesSurvive() throws {
    let result = try Luahost.run([Luahost.fixture("binary_safe.lua")])
    #expect(result.stdout == "3\t255\t254\n")
  }

  @Test func binaryChunksAreRefused() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("luahost-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("chunk.luac").path
    let dump = try Luahost.run(
      ["--trusted", "-", path],
      stdin: "io.open(arg[1], 'wb'):write(string.dump(function() print('hi') end)):close()")
    #expect(dump.status == 0)
    let result = try Luahost.run([path])
    #expect(result.status == 1)
    #expect(result.stderr.contains("attempt to load a binary chunk"))
  }

  @Test func versionHelpAndInit() throws {
    let version = try Luahost.run(["-v"])
    #expect(version.status == 0)
    #expect(version.stdout.hasPrefix("luahost ") && version.stdout.contains("Lua 5.4"))
    let help = try Luahost.run(["--help"])
    #expect(help.status == 0 && help.stdout.hasPrefix("usage: luahost"))
    let initialized = try Luahost.run(
      ["-e", "print(greeting)"], environment: ["LUA_INIT": "greeting = 'hi'"])
    #expect(initialized.stdout == "hi\n")
    let ignored = try Luahost.run(
      ["-E", "-e", "print(greeting)"], environment: ["LUA_INIT": "greeting = 'hi'"])
    #expect(ignored.stdout == "nil\n")
  }

  @Test func requiresModules() throws {
    let result = try Luahost.run(["--trusted", "-l", "m=string", "-e", "print(m.upper('ok'))"])
    #expect(result.stdout == "OK\n")
  }

  @Test func interactiveModeWithPipedInput() throws {
    let result = try Luahost.run(
      ["-i"], stdin: "x = 20\nx + 1\nfunction f()\n  return 'multi'\nend\nf()\nerror('oops')\n")
    #expect(result.status == 0)
    #expect(result.stdout.contains("> 21\n"))
    #expect(result.stdout.contains(">> "))
    #expect(result.stdout.contains("\"multi\"\n"))
    #expect(result.stderr.contains("stdin:1: oops"))
  }

  @Test func scriptsAreSandboxedByDefault() throws {
    let sandboxed = try Luahost.run(["-e", "print(io, os.execute, debug.sethook, debug.getlocal)"])
    #expect(sandboxed.stdout == "nil\tnil\tnil\tnil\n")
    let trusted = try Luahost.run(["--trusted", "-e", "print(type(io), type(os.execute))"])
    #expect(trusted.stdout == "table\tfunction\n")
    let allowed = try Luahost.run(["--allow", "io", "-e", "print(type(io), os.execute)"])
    #expect(allowed.stdout == "table\tnil\n")
  }

  @Test func limitFlags() throws {
    let timeout = try Luahost.run(["--timeout", "1s", "-e", "while true do end"])
    #expect(timeout.status == 1)
    #expect(timeout.stderr.hasPrefix("luahost: execution timed out"))
    let memory = try Luahost.run([
      "--memory", "4M", "-e", "local t = {} for i = 1, 1e7 do t[i] = i end",
    ])
    #expect(memory.status == 1)
    #expect(memory.stderr.contains("not enough memory"))
    let budget = try Luahost.run(["--instructions", "10000", "-e", "for i = 1, 1e9 do end"])
    #expect(budget.stderr.hasPrefix("luahost: instruction limit exceeded"))
    let bad = try Luahost.run(["--memory", "lots"])
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("bad size 'lots'"))
    let help = try Luahost.run(["--allow", "io", "--help"])
    #expect(
      help.stdout.contains("profile: sandbox: base (filtered)") && help.stdout.contains("+ io"))
  }

  @Test func optionParsingFollowsLua() throws {
    let options = try CommandLineOptions(parsing: [
      "-W", "-e", "x=1", "-lfoo", "script.lua", "-e", "y",
    ])
    #expect(options.warnings)
    #expect(options.actions == [.execute("x=1"), .require(global: "foo", module: "foo")])
    #expect(options.script == "script.lua")
    #expect(options.scriptArguments == ["-e", "y"])
    #expect(throws: UsageError.self) { try CommandLineOptions(parsing: ["-x"]) }
    let afterDashes = try CommandLineOptions(parsing: ["--", "-e"])
    #expect(afterDashes.script == "-e")
  }
}

@Suite(.timeLimit(.minutes(30))) struct SeedScenarioTests {
  @Test func seedExampleThroughTheRealBinary() throws {
    let script = Luahost.fixtures.deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("scripts/seed.lua").path
    let result = try Luahost.run([script])
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        alert: Error
          message: MyError()
          view: root/content/error-handling/deeply-buried/crash
          source: \(script):13
          dismiss: That sucks
        boundary root/content/error-handling shows: Error / MyError() / That sucks
        raised at: root/content/error-handling/deeply-buried/crash
        alert repeated: Error ×2 [root/content/error-handling/deeply-buried/crash]
        sibling alert: nil; count at the nearest boundary: 2
        after dismissal: nil

        """)
  }

  @Test func unhandledErrorsExitOne() throws {
    let result = try Luahost.run([
      "-e", "ui.root:add(ui.button{id = 'b', on_tap = function() error('loose', 0) end}):tap()",
    ])
    #expect(result.status == 1)
    #expect(result.stdout.hasPrefix("alert: Unhandled error\n  message: loose\n  view: root/b\n"))
  }
}

@Suite(.timeLimit(.minutes(30))) struct PluginCommandLineTests {
  @Test func pluginsLoadFromTheCommandLine() throws {
    let result = try Luahost.run(
      [
        "--plugins", Luahost.fixture("plugins"), "-e",
        "ui.find('explode'):tap() print(#ui.find('plugins').children)",
      ])
    #expect(result.status == 0)
    #expect(result.stdout.contains("alert: Error in plugin broken\n"))
    #expect(
      result.stdout.contains(
        "alert: Error in plugin clock\n  message: (error object is a table value)\n  view: root/plugins/clock/explode"
      ))
    #expect(result.stdout.contains("[clock] clock ready"))
    #expect(result.stdout.hasSuffix("4\n"))
    #expect(
      result.stderr.contains(
        "plugin wants_io asks for io, which the host has not allowed (--allow io)"))
  }

  @Test func missingPluginFolderIsAUsageError() throws {
    let result = try Luahost.run(["--plugins", "/no/such/dir", "-e", "print(1)"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("is not a directory"))
  }
}

@Suite(.timeLimit(.minutes(30))) struct BadInputTests {

  @Test func invalidUTF8InStringsIsKeptAndInCodeIsASyntaxError() throws {
    let kept = try Luahost.temporaryFile(
      Array("io.write(#\"".utf8) + [0xFF, 0xFE] + Array("\", '\\n')".utf8))
    defer { try? FileManager.default.removeItem(atPath: kept) }
    let ok = try Luahost.run(["--trusted", kept])
    #expect(ok.status == 0)
    #expect(ok.stdout == "2\n")
    let broken = try Luahost.temporaryFile(
      Array("x = 1\n".utf8) + [0xC3, 0x28] + Array(" = 2\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: broken) }
    let error = try Luahost.run([broken])
    #expect(error.status == 1)
    #expect(error.stderr.contains(":2: unexpected symbol near '<\\195>'"))
  }

  @Test func invalidUTF8ThroughTheReplReachesLuaUnchanged() throws {
    let input = Data(Array("s = \"".utf8) + [0xFF] + Array("\"\n#s, s:byte()\n".utf8))
    let process = Process()
    process.executableURL = Luahost.executable
    process.arguments = ["-i"]
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = Pipe()
    try process.run()
    stdin.fileHandleForWriting.write(input)
    try stdin.fileHandleForWriting.close()
    let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(output.contains("1\t255\n"))
  }

  @Test func aOneMegabyteLineArrivesIntact() throws {
    let long = String(repeating: "x", count: 1 << 20)
    let script = try Luahost.temporaryFile(Array("local s = \"\(long)\" print(#s)\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: script) }
    let file = try Luahost.run([script])
    #expect(file.status == 0)
    #expect(file.stdout == "1048576\n")
    let repl = try Luahost.run(["-i"], stdin: "#\"\(long)\"\n")
    #expect(repl.status == 0)
    #expect(repl.stdout.contains("1048576\n"))
  }
}
