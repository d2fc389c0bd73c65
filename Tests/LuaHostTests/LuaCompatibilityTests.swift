import Foundation
import TestSupport
import Testing

/// `luahost` standing in for the `lua` interpreter, on the points Lua's own test suite
/// (`testes/main.lua`) checks. Each expectation is what `lua5.4` does on this machine.
// A hang guard (generous: under the sanitizers a test may wait minutes for a thread).
@Suite(.timeLimit(.minutes(30))) struct LuaCompatibilityTests {
  @Test func warningsFollowWarnControlAndTheWFlag() throws {
    let path = try Luahost.temporaryFile(
      """
      warn("@off", "XXX", "@off")
      warn("@off")
      warn("@on", "YYY", "@on")
      warn("@on")
      warn("", "@on")
      warn("Z", "Z", "Z")
      """)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let on = try Luahost.run(["--trusted", "-W", path])
    #expect(on.status == 0)
    #expect(on.stderr == "Lua warning: @offXXX@off\nLua warning: @on\nLua warning: ZZZ\n")
    let off = try Luahost.run(["--trusted", "-e", "warn('not shown')"])
    #expect(off.stderr == "")
  }

  @Test func optionEIgnoresLuaPathVariables() throws {
    let environment = ["LUA_PATH": "xxx", "LUA_CPATH": "yyy", "LUA_PATH_5_4": "zzz"]
    let code = "print(package.path, package.cpath)"
    let plain = try Luahost.run(["--trusted", "-e", code], environment: environment)
    #expect(plain.stdout == "zzz\tyyy\n")
    let ignoring = try Luahost.run(["--trusted", "-E", "-e", code], environment: environment)
    #expect(ignoring.status == 0)
    #expect(!ignoring.stdout.contains("zzz") && !ignoring.stdout.contains("yyy"))
    #expect(ignoring.stdout.contains("/lua/5.4/"))
  }

  @Test func scriptArgumentsComeFromTheArgTable() throws {
    let changed = try Luahost.run(["-e", "arg[1] = 100", "-", "x"], stdin: "print(...)")
    #expect(changed.stdout == "100\n")
    let broken = try Luahost.run(["-e", "arg = 1", "-"], stdin: "")
    #expect(broken.status == 1)
    #expect(broken.stderr.contains("'arg' is not a table"))
  }

  @Test func optionsAreRefusedInLuasWords() throws {
    for (arguments, message) in [
      (["-h"], "unrecognized option '-h'"), (["---"], "unrecognized option '---'"),
      (["-vv"], "unrecognized option '-vv'"), (["-e"], "'-e' needs argument"),
      (["-l"], "'-l' needs argument"), (["-e", "-x"], "'-e' needs argument"),
      (["-e", "-1"], "'-e' needs argument"), (["-l", "-i"], "'-l' needs argument"),
    ] {
      let result = try Luahost.run(arguments)
      #expect(result.status == 2, "\(arguments)")  // usage errors (lua: 1; see README)
      #expect(result.stderr.contains(message), "\(arguments)")
    }
    let version = try Luahost.run(["-v", "-e", "print'hello'"])
    #expect(version.stdout.hasSuffix("PUC-Rio\nhello\n"))
  }

  /// As lua.c reads it, `-- -` names a file called `-`, not stdin (after `--` nothing is an
  /// option, `-` included).
  @Test func aDashAfterTheEndOfOptionsIsAFile() throws {
    let folder = try Luahost.temporaryFolder(["-": "print('the file', ...)"])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let stock = try StockLua.run(["--", "-", "a"], stdin: "print('stdin')", directory: folder)
    #expect(stock.stdout == "the file\ta\n")
    let ours = try Luahost.run(["--", "-", "a"], stdin: "print('stdin')", directory: folder)
    #expect(ours.stdout == stock.stdout, "\(ours.stderr)")
    let plain = try Luahost.run(["-", "a"], stdin: "print('stdin', ...)", directory: folder)
    #expect(plain.stdout == "stdin\ta\n", "\(plain.stderr)")
  }

  /// As under `lua`, only `-e` and `-v` keep a run with no script from running stdin:
  /// `-l` alone loads its module, then stdin runs.
  @Test func stdinRunsAfterRequireAlone() throws {
    let folder = try Luahost.temporaryFolder(["mymod.lua": "return {v = 42}"])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let name = "mymod"
    let code = "print('from stdin', mymod.v)"
    let stock = try StockLua.run(["-l", name], stdin: code, directory: folder)
    #expect(stock.stdout == "from stdin\t42\n")
    for trust in [[], ["--trusted"]] {
      let ours = try Luahost.run(trust + ["-l", name], stdin: code, directory: folder)
      #expect(ours.stdout == stock.stdout, "\(trust): \(ours.stderr)")
      #expect(ours.status == 0)
      let executed = try Luahost.run(
        trust + ["-l", name, "-e", "x = 1"], stdin: code, directory: folder)
      #expect(executed.stdout == "", "\(trust): -e keeps stdin unread")
    }
  }

  /// Runs the stock `lua5.4` with `arguments`: its exit status and stderr.
  static func stock(_ arguments: [String], stdin: String? = nil) throws -> (Int32, String) {
    let stock = Process()
    stock.executableURL = URL(fileURLWithPath: "/usr/bin/lua5.4")
    stock.arguments = arguments
    let errors = Pipe()
    stock.standardError = errors
    stock.standardOutput = FileHandle.nullDevice
    if let stdin {
      let input = Pipe()
      stock.standardInput = input
      try input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8))
      try input.fileHandleForWriting.close()
    }
    try stock.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    stock.waitUntilExit()
    return (stock.terminationStatus, text)
  }

  /// An uncaught error's first line, for error values of every kind, is `lua5.4`'s: only a
  /// string from `__tostring` names the object (a number does not), and a value with none
  /// is named by its type, never by `__name`. Sandboxed and trusted alike.
  @Test(arguments: [
    "true", "print", "coroutine.create(print)", "12.5", "2^63", "-0.0", "math.huge",
    "setmetatable({}, {__tostring = function() return 42 end})",
    "setmetatable({}, {__tostring = function() return nil end})",
    "setmetatable({}, {__tostring = function() return {} end})",
    "setmetatable({}, {__tostring = function() return 'named' end})",
    "setmetatable({}, {__name = 'Mine'})",
    "setmetatable({}, {__name = 'Mine', __tostring = function() return 1 end})",
  ])
  func anUncaughtErrorValueIsNamedAsLuaNamesIt(_ value: String) throws {
    let (status, expected) = try Self.stock(["-e", "error(\(value))"])
    #expect(status == 1)
    // The first line without the program's name ("/usr/bin/lua5.4: ", "luahost: ").
    func message(_ text: String) -> Substring {
      let line = text.prefix { $0 != "\n" }
      return line.range(of: ": ").map { line[$0.upperBound...] } ?? line
    }
    for trust in [["--allow", "io"], ["--trusted"]] {
      let ours = try Luahost.run(trust + ["-e", "error(\(value))"])
      #expect(ours.status == 1)
      #expect(message(ours.stderr) == message(expected), "\(trust)")
    }
  }

  /// An uncaught error's whole report (message and traceback) is `lua5.4`'s, sandboxed and
  /// trusted: a library function is named as `luaL_traceback` names it, from
  /// `package.loaded` (`function 'string.rep'`, not `method 'rep'`), whatever the call
  /// looked like.
  @Test(arguments: [
    "string.rep()", "('x'):rep()", "local s = string s.rep()", "table.concat({{}})",
    "math.floor('x')", "setmetatable(1)", "local t = {} function t.go() error('x') end t.go()",
    "function g() string.format('%d', 'x') end local function f() g() end f()",
    "local m = {f = function() error('in f') end} m.f()",
    "coroutine.wrap(function() error('w') end)()",
    // A frame entered by a tail call is followed by "(...tail calls...)".
    "local function f() error('t') end local function g() return f() end g()",
    "local function f(n) if n == 0 then error('deep') end return f(n - 1) end f(3)",
    "local function g() return error('c') end g()",
  ])
  func anUncaughtErrorsReportIsLuas(_ code: String) throws {
    let (_, expected) = try Self.stock(["-e", code])
    for trust in [[], ["--trusted"]] {
      let ours = try Luahost.run(trust + ["-e", code])
      #expect(ours.status == 1)
      #expect(
        ours.stderr == expected.replacingOccurrences(of: "/usr/bin/lua5.4:", with: "luahost:"),
        "\(trust)")
    }
  }

  /// The sandbox's `table.sort` costs no C level of its own: sorts nested in comparators
  /// reach the C stack's limit as deep as liblua's do (half as deep before, when it called
  /// liblua's sort through `lua_call`). `luahost` runs a script one C frame below `lua`'s
  /// (the main chunk's caller), so both modes stop one level short of stock.
  @Test func nestedSortsReachTheDepthStockReaches() throws {
    let script = try Luahost.temporaryFile(
      """
      local depth = 0
      local function less(a, b) depth = depth + 1 table.sort({3, 2, 1}, less) return a < b end
      local ok, message = pcall(table.sort, {2, 1}, less)
      print(ok, message, depth)
      """)
    defer { try? FileManager.default.removeItem(atPath: script) }
    let sandboxed = try Luahost.run([script])
    let trusted = try Luahost.run(["--trusted", script])
    #expect(sandboxed.stdout == trusted.stdout)
    #expect(trusted.stdout.hasPrefix("false\tC stack overflow\t"), "\(trusted.stdout)")
    let depth = Int(trusted.stdout.split(separator: "\t").last?.dropLast() ?? "") ?? 0
    #expect(depth > 190, "\(trusted.stdout)")
  }

  /// A `__gc` that cannot be called warns as the collector does in `lua`, naming the
  /// metamethod: the sandbox runs finalizers later as plain calls, whose message did not
  /// (a fidelity hunt), also at the end of a chain of `__call`s (a hostile review).
  /// Sandboxed and trusted alike.
  @Test func aFinalizerThatCannotBeCalledWarnsAsLuaWarns() throws {
    let code = """
      warn('@on') collectgarbage('stop')
      setmetatable({}, {__gc = true})
      setmetatable({}, {__gc = setmetatable({}, {__name = 'Thing'})})
      setmetatable({}, {__gc = setmetatable({}, {__call = function() warn('called') end})})
      setmetatable({}, {__gc = setmetatable({}, {__call = 1})})
      setmetatable({}, {__gc = setmetatable({}, {__call = setmetatable({}, {__name = 'Deep'})})})
      setmetatable({}, {__gc = setmetatable({}, {__call = setmetatable({}, {__call = function()
        warn('chained') end})})})
      collectgarbage()
      """
    let (status, expected) = try Self.stock(["-e", code])
    #expect(expected.contains("(metamethod '__gc')"), "\(expected)")
    for trust in [[], ["--trusted"]] {
      let ours = try Luahost.run(trust + ["-e", code])
      #expect(ours.status == status && ours.stderr == expected, "\(trust): \(ours.stderr)")
    }
  }

  /// `os.exit(code, true)` closes the state as `lua`'s does: the script's pending `<close>`
  /// variables first (the script runs in a coroutine here, whose variables `lua_close`
  /// skips), then its finalizers (the sandbox's deferred ones too); without `true`,
  /// neither. Trusted, and sandboxed with `os` granted.
  @Test func osExitClosesTheStateAsLuaDoes() throws {
    let script = try Luahost.temporaryFile(
      """
      local x <close> = setmetatable({}, {__close = function() print('closed') end})
      setmetatable({}, {__gc = function() print('finalized') end})
      local function inner()
        local y <close> = setmetatable({}, {__close = function() print('inner closed') end})
        os.exit(tonumber(arg[1]) or arg[1] == 'true', arg[2] == 'close')
      end
      inner()
      """)
    defer { try? FileManager.default.removeItem(atPath: script) }
    for (arguments, status, output) in [
      (["3", "close"], Int32(3), "inner closed\nclosed\nfinalized\n"),
      (["true", "close"], 0, "inner closed\nclosed\nfinalized\n"), (["4", "keep"], 4, ""),
    ] {
      let stock = try StockLua.run([script] + arguments)
      #expect(stock.stdout == output && stock.status == status, "lua5.4 \(arguments)")
      for trust in [["--trusted"], ["--allow", "os"]] {
        let ours = try Luahost.run(trust + [script] + arguments)
        #expect(ours.status == status, "\(trust) \(arguments): \(ours.stderr)")
        #expect(ours.stdout == output, "\(trust) \(arguments)")
      }
    }
  }

  /// `os.exit(code, true)` from a finalizer: the finalizers after it still run as the
  /// state closes, as `lua_close` runs them (they were dropped with the finalizer's queue,
  /// a hostile review), at the end of the script and in `collectgarbage()`.
  @Test func osExitInAFinalizerLeavesTheOthersToRun() throws {
    let atEnd = """
      k1 = setmetatable({}, {__gc = function() print('gc1') end})
      k2 = setmetatable({}, {__gc = function() print('gc2 exits') os.exit(5, true) end})
      k3 = setmetatable({}, {__gc = function() print('gc3') end})
      print('end of script')
      """
    let inCollect = """
      local a = setmetatable({}, {__gc = function() print('gc a') end})
      local b = setmetatable({}, {__gc = function() print('gc b exits') os.exit(2, true) end})
      local c = setmetatable({}, {__gc = function() print('gc c') end})
      keep = setmetatable({}, {__gc = function() print('gc keep') end})
      a, b, c = nil, nil, nil
      collectgarbage()
      print('not reached')
      """
    for (code, status, output) in [
      (atEnd, Int32(5), "end of script\ngc3\ngc2 exits\ngc1\n"),
      (inCollect, 2, "gc c\ngc b exits\ngc a\ngc keep\n"),
    ] {
      let script = try Luahost.temporaryFile(code)
      defer { try? FileManager.default.removeItem(atPath: script) }
      let stock = try StockLua.run([script])
      #expect(stock.stdout == output && stock.status == status, "lua5.4: \(stock.stdout)")
      for trust in [["--trusted"], ["--allow", "os"]] {
        let ours = try Luahost.run(trust + [script])
        #expect(ours.status == status, "\(trust): \(ours.stderr)")
        #expect(ours.stdout == output, "\(trust)")
      }
    }
  }

  /// Command-line words reach Lua as the bytes given, UTF-8 or not, as `lua` passes them:
  /// a script's path, its arguments, `-e` code, `LUA_INIT`. (They were repaired to U+FFFD: a script saw
  /// other bytes, and a path that was not UTF-8 could not be opened.) A path that the host
  /// opens through `String` is refused with a message instead.
  @Test func commandLineBytesThatAreNotUTF8ReachLuaAsGiven() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bytes-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // The bytes are made by printf in the shell: Foundation's Process takes strings.
    let shell = #"""
      set -e
      luahost="$1"; dir="$2"
      script="$dir/n$(printf '\377')me.lua"
      printf 'local a = ... print(#a, a:byte(1, -1))\n' > "$script"
      "$luahost" "$script" "$(printf 'a\377b')"
      "$luahost" -e "$(printf 'print(#"\377\376")')"
      LUA_INIT="$(printf 'init = "\377"')" "$luahost" -e 'print(#init)'
      "$luahost" -e 'print(#arg[1], arg[1]:byte(1, -1))' - "$(printf '\364\217\274\200')" </dev/null
      "$luahost" --trusted "$script" "$(printf '\300')"
      "$luahost" --error-log "$dir/$(printf '\377')" -e 'print(1)' || echo "status $?"
      """#
    let result = try Luahost.run(
      ["-c", shell, "sh", Luahost.executable.path, folder.path],
      program: URL(fileURLWithPath: "/bin/sh"))
    #expect(
      result.stdout == "3\t97\t255\t98\n2\n1\n4\t244\t143\t188\t128\n1\t192\nstatus 2\n",
      "\(result.stderr)")
    #expect(result.stderr.contains("luahost: '--error-log': the path is not valid UTF-8"))
  }

  @Test func anErrorObjectNamesItselfWhereTheErrorHappened() throws {
    let path = try Luahost.temporaryFile(
      """
      m = setmetatable({}, {__tostring = function()
        return 'line ' .. debug.getinfo(4).currentline
      end})
      error(m)
      """)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try Luahost.run(["--trusted", path])
    #expect(result.status == 1)
    #expect(result.stderr == "luahost: line 4\n")
    let plain = try Luahost.run(["-e", "error{}"])
    #expect(plain.stderr.contains("(error object is a table value)\nstack traceback:"))
  }

  @Test func aLinkNamedLuaIsTrustedAndNamedAsInvoked() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("luahost-link-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let link = directory.appendingPathComponent("lua").path
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: Luahost.executable.path)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    // An empty environment: the link alone must make it trusted.
    process.arguments = [
      "-i", link, "-e", "print(io ~= nil, os.exit ~= nil)", "-e", "error('x', 0)",
    ]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(stdout == "true\ttrue\n")
    #expect(stderr.hasPrefix("\(link): x"))
    #expect(process.terminationStatus == 1)
  }

  @Test func trustIsNotPassedOnThroughTheEnvironment() throws {
    // A child started from a trusted run by the name `luahost` is sandboxed again.
    let code = #"local p = io.popen(arg[0] .. ' -e "print(io ~= nil)"') io.write(p:read('a'))"#
    let result = try Luahost.run(["--trusted", "-e", code])
    #expect(result.stdout == "false\n")
    let inherited = try Luahost.run(
      ["-e", "print(io ~= nil)"], environment: ["LUAHOST_TRUSTED": "1"])
    #expect(inherited.stdout == "false\n")
  }

  @Test func interactiveOnAPipeBehavesAsLuaI() throws {
    let prompts = try Luahost.run(
      ["--trusted", "-e", "_PROMPT='P1:' _PROMPT2='P2:'", "-i"], stdin: "x = {\n}\n=1+1\n")
    #expect(prompts.stdout.hasSuffix("P1:x = {\nP2:}\nP1:=1+1\n2\nP1:\n"))
    let noPrint = try Luahost.run(["--trusted", "-e", "print=nil", "-i"], stdin: "10\n")
    #expect(noPrint.stderr.contains("error calling 'print' (attempt to call a nil value)"))
    // As lua.c: a chunk is tried as an expression on its first line only; continued, it
    // is statements (evaluated whole as an expression, this printed 2).
    let continued = try Luahost.run(["--trusted", "-i"], stdin: "--[[ note\n]] 1 + 1\n")
    #expect(continued.stderr == "stdin:2: unexpected symbol near '1'\n", "\(continued.stderr)")
    #expect(!continued.stdout.contains("2\n"))
    // A line's error is reported as lua -i reports it, its traceback to the end.
    let failing = "error('e')\nerror({})\n"
    let (_, stockErrors) = try Self.stock(["-i"], stdin: failing)
    let oursFailing = try Luahost.run(["--trusted", "-i"], stdin: failing)
    #expect(oursFailing.stderr == stockErrors, "\(oursFailing.stderr)")
    // Sandboxed, the REPL keeps its own pretty printing and prompts.
    let sandboxed = try Luahost.run(["-e", "_PROMPT='P1:'", "-i"], stdin: "'s'\n")
    #expect(sandboxed.stdout.contains("> \"s\""))
  }

  /// Starts trusted `luahost -e code` and reads its stdout until `line` appears.
  func startAndWait(for line: String, code: String) throws -> (Process, FileHandle, String) {
    let process = Process()
    process.executableURL = Luahost.executable
    process.arguments = ["--trusted", "-e", code]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = Pipe()
    try process.run()
    let reader = output.fileHandleForReading
    var seen = Data()
    while !String(decoding: seen, as: UTF8.self).contains(line) {
      let chunk = reader.availableData
      if chunk.isEmpty { break }
      seen.append(chunk)
    }
    return (process, reader, String(decoding: seen, as: UTF8.self))
  }

  @Test(.disabled(if: Sanitizers.threadSanitizer, "TSan defers signals; see Sanitizers"))
  func ctrlCInAScriptIsACatchableErrorAndASecondOneEndsIt() throws {
    let (process, reader, seen) = try startAndWait(
      for: "12\n", code: "print(pcall(function() print(12) while true do end end)) print(42)")
    kill(process.processIdentifier, SIGINT)
    let rest = String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(seen + rest == "12\nfalse\tinterrupted!\n42\n")
    #expect(process.terminationStatus == 0)

    // Inside one long C call the first Ctrl-C cannot be delivered to Lua; the second ends
    // the process with the default action.
    let (search, _, started) = try startAndWait(
      // Whether the first Ctrl-C lands in the long call or just before it (the machine
      // may be slow to get there), it is caught inside the pcall; the loop goes back into
      // the long call, and the second one ends the process.
      for: "15\n",
      code:
        "local s = string.rep('a', 100000) while true do pcall(function() print(15) string.find(s, '.*b') end) end"
    )
    #expect(started == "15\n")
    kill(search.processIdentifier, SIGINT)
    // The first one is handled once the handler has put back the default action (it
    // clears SIGINT from the caught set): wait for that, so the two do not merge into one.
    #expect(Self.waitUntilSIGINTIsNotCaught(search.processIdentifier))
    kill(search.processIdentifier, SIGINT)
    search.waitUntilExit()
    #expect(search.terminationReason == .uncaughtSignal)
    #expect(search.terminationStatus == SIGINT)
  }

  /// As under `lua -i`, Ctrl-C interrupts the running line of a REPL that reads a pipe
  /// (it ended the process: the handler was installed on a terminal only), and the REPL
  /// goes on with the next line.
  @Test(.disabled(if: Sanitizers.threadSanitizer, "TSan defers signals; see Sanitizers"))
  func ctrlCInterruptsALineOfAPipedRepl() throws {
    for options in [["-i"], ["--trusted", "-i"]] {
      let child = try LuahostChild(options)
      try child.write("print('loop' .. 'ing') while true do end\n")
      #expect(child.waitFor("looping"), "\(options)")
      kill(child.processIdentifier, SIGINT)
      #expect(child.waitFor("interrupted", onStderr: true), "\(options)")
      try child.write("print('al' .. 'ive')\n")
      #expect(child.waitFor("alive"), "\(options)")
      let status = try child.finish()
      #expect(!child.endedBySignal && status == 0, "\(options): \(child.stderr)")
    }
  }

  /// Ctrl-C once the main chunk has ended (a timer pending, a plugin's timer looping) ends
  /// the run as interrupted, with exit status 1; it ended the process by the signal, with
  /// nothing said and nothing cancelled.
  @Test(.disabled(if: Sanitizers.threadSanitizer, "TSan defers signals; see Sanitizers"))
  func ctrlCAfterTheMainChunkEndsTheRunAsInterrupted() throws {
    let waiting = try LuahostChild(
      ["-e", "timer.after(100, function() end) print('wait' .. 'ing')"])
    #expect(waiting.waitFor("waiting"))
    kill(waiting.processIdentifier, SIGINT)
    let waited = try waiting.finish()
    #expect(!waiting.endedBySignal && waited == 1, "\(waiting.stderr)")
    #expect(waiting.stderr.contains("interrupted"), "\(waiting.stderr)")
    let folder = try Luahost.temporaryFolder([
      "plugins/loop.lua":
        "timer.after(0, function() print('loop' .. 'ing') while true do end end)"
    ])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let looping = try LuahostChild(["--plugins", "plugins", "-e", ""], directory: folder)
    #expect(looping.waitFor("looping"))
    kill(looping.processIdentifier, SIGINT)
    let looped = try looping.finish()
    #expect(!looping.endedBySignal && looped == 1, "\(looping.stderr)")
    #expect(looping.stderr.contains("interrupted"), "\(looping.stderr)")
  }

  @Test(.disabled(if: Sanitizers.threadSanitizer, "TSan defers signals; see Sanitizers"))
  func ctrlCWhileAScriptWaitsEndsTheWait() throws {
    // Whether it lands while the script runs or while it waits, the first Ctrl-C ends the
    // script as interrupted (once, no Lua code ran to take it, and it was kept for the
    // next step, an hour away).
    let (process, reader, seen) = try startAndWait(
      for: "waiting\n", code: "print('waiting') timer.sleep(3600) print('woke')")
    #expect(seen == "waiting\n")
    kill(process.processIdentifier, SIGINT)
    let rest = String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(rest.isEmpty)
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 1)
  }

  /// Waits (up to 30 s) until `pid` no longer catches SIGINT (`SigCgt` in /proc).
  static func waitUntilSIGINTIsNotCaught(_ pid: Int32) -> Bool {
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
      let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
      guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
        let mask = UInt64(
          line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
      else { return false }
      if mask & (1 << (UInt64(SIGINT) - 1)) == 0 { return true }
      usleep(1000)
    }
    return false
  }
}
