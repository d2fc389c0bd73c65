import Foundation
import TestSupport
import Testing

/// A timeout or an instruction limit names the line the script was stopped on, as stock
/// Lua's hook does. A stop yields the script's coroutine from its hook, and Lua steps the
/// saved pc back one instruction as it yields: the traceback named the line before the loop
/// (the line of a function's header, inside a function).
// The timeouts are long enough for a loaded machine to start the script well before the
// run's end: a script that never started would have no line to name.
@Suite(.timeLimit(.minutes(30))) struct StopLocationTests {
  static let mainChunkLoop = "local a = 1\nlocal b = 2\n\nwhile true do b = b + 1 end\n"
  static let functionLoop =
    "local b = 2\n\nlocal function f()\n  while true do b = b + 1 end\nend\nf()\n"

  @Test(arguments: [["--timeout", "2s"], ["--instructions", "100000"]])
  func aStopNamesTheLineOfTheLoop(limit: [String]) throws {
    let main = try Luahost.temporaryFile(Self.mainChunkLoop)
    let inMain = try Luahost.run(limit + [main])
    #expect(inMain.status == 1, "\(inMain.stderr)")
    #expect(inMain.stderr.contains(":4: in main chunk"), "\(inMain.stderr)")
    let function = try Luahost.temporaryFile(Self.functionLoop)
    let inFunction = try Luahost.run(limit + [function])
    #expect(inFunction.status == 1, "\(inFunction.stderr)")
    #expect(inFunction.stderr.contains(":4: in local 'f'"), "\(inFunction.stderr)")
    #expect(inFunction.stderr.contains(":6: in main chunk"), "\(inFunction.stderr)")
  }

  /// A stop inside `gsub` is raised again as the closing of its buffer unwinds: the trace
  /// of that second raise (two C frames, no line) replaced the first.
  @Test(arguments: [["--timeout", "2s"], ["--instructions", "10000000"]])
  func aStopInsideGsubKeepsWhereItStopped(limit: [String]) throws {
    let script = try Luahost.temporaryFile(
      "local s = string.rep('a', 1e7)\nwhile true do\n  local r = s:gsub('a', 'b')\nend\n")
    let result = try Luahost.run(limit + [script])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr.contains("in function 'string.gsub'"), "\(result.stderr)")
    #expect(result.stderr.contains(":3: in main chunk"), "\(result.stderr)")
  }

  /// A sort of short strings full of NUL bytes is stopped inside the sort: liblua compares
  /// such strings piece by piece between NULs, and it sorted them unpolled (seconds for a
  /// table of 200,000), past the deadline and into the backstop.
  @Test func aStopReachesASortOfStringsOfNulBytes() throws {
    let script = try Luahost.temporaryFile(
      """
      local t, base = {}, string.rep('\\0', 62)
      for i = 1, 200000 do t[i] = base .. string.char(i % 256, (i // 256) % 256) end
      while true do table.sort(t) end

      """)
    let result = try Luahost.run(["--timeout", "2s", script])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr.contains("execution timed out"), "\(result.stderr)")
    #expect(result.stderr.contains("in function 'table.sort'"), "\(result.stderr)")
  }

  /// A script that waited, then looped past its deadline, lost its traceback: the wait's
  /// timer cancelled the run, and the error became a bare "execution timed out".
  @Test func aTimeoutAfterAWaitKeepsItsTraceback() throws {
    let script = try Luahost.temporaryFile(
      "timer.sleep(0.01)\nlocal x = 0\nwhile true do x = x + 1 end\n")
    let result = try Luahost.run(["--timeout", "2s", script])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr.contains("execution timed out"), "\(result.stderr)")
    #expect(result.stderr.contains(":3: in main chunk"), "\(result.stderr)")
  }

  /// A timeout that comes while the script waits names where it waits: it had no
  /// traceback at all, in a script or in a plugin's alert.
  @Test func aTimeoutWhileWaitingShowsWhereItWaits() throws {
    let script = try Luahost.temporaryFile(
      "local function f()\n  while true do timer.sleep(0.001) end\nend\nf()\n")
    let result = try Luahost.run(["--timeout", "2s", script])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr.contains(":2: in local 'f'"), "\(result.stderr)")
    #expect(result.stderr.contains(":4: in main chunk"), "\(result.stderr)")
    let folder = try Luahost.temporaryFolder([
      "plugins/p.lua": "local x = 1\ntimer.sleep(100)\n"
    ])
    let plugin = try Luahost.run(
      ["--timeout", "2s", "--plugins", "plugins", "-e", "print('main')"], directory: folder)
    #expect(plugin.stdout.contains("source: plugins/p.lua:2\n"), "\(plugin.stdout)")
  }

  /// A plugin's alert names the line too.
  @Test func aPluginsAlertNamesTheLineOfTheLoop() throws {
    let folder = try Luahost.temporaryFolder([
      "plugins/p.lua":
        "local n = 0\ntimer.after(0, function()\n  local x = 1\n  while true do x = x + 1 end\nend)\n"
    ])
    let result = try Luahost.run(
      ["--timeout", "2s", "--plugins", "plugins", "-e", "print('main')"], directory: folder)
    #expect(result.stdout.contains("source: plugins/p.lua:4"), "\(result.stdout)")
    // Cut at its end, the run fails, though the plugin's boundary handled the error.
    #expect(result.status == 1, "\(result.stderr)")
  }
}
