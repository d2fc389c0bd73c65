import Foundation
import TestSupport
import Testing

/// Issue 21, class 6: the coroutines the host drives and the host's own Lua functions are
/// opaque to the script.
@Suite(.timeLimit(.minutes(30))) struct DriverSealTests {
  /// A script that keeps the coroutine its action runs in cannot resume it while the host
  /// waits on its behalf: `timer.sleep` would return values the script chose.
  @Test func aScriptCannotResumeACoroutineTheHostDrives() throws {
    let result = try Luahost.run([
      "-e",
      """
      local b = ui.root:add(ui.button{ id = 'b', on_tap = function()
        local co = coroutine.running()
        timer.after(0, function() print(coroutine.resume(co, 'forged')) tries = tries + 1 end)
        timer.after(0, function() print(pcall(coroutine.close, co)) tries = tries + 1 end)
        print('slept', timer.sleep(0.05))
        acted = true
      end })
      tries = 0
      b:tap()
      local main = coroutine.running()
      timer.after(0, function() print(coroutine.resume(main, 'forged too')) tries = tries + 1 end)
      timer.sleep(0.1)
      -- A loaded machine may wake the sleeps and run the timers in any order: main goes on
      -- only once the action is done and every forgery was tried.
      while not (acted and tries == 3) do timer.sleep(0.01) end
      print('main woke')
      """,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.filter { $0 == "false\tcannot resume non-suspended coroutine" }.count == 2)
    #expect(lines.contains { $0.hasPrefix("false\t") && $0.contains("cannot close") })
    #expect(lines.contains("slept"))
    #expect(lines.last == "main woke")
    #expect(!result.stdout.contains("forged"))
  }

  /// No Lua function of the host (the test runner's helpers and preludes) lends
  /// its upvalues to the debug slice, wherever the script finds it.
  @Test func theDebugSliceReachesOnlyTheScriptsOwnFunctions() throws {
    let probe = """
      local seen, host, refused = {}, 0, 0
      local function visit(v, depth)
        if seen[v] or depth > 3 then return end
        seen[v] = true
        if type(v) == 'function' then
          local info = debug.getinfo(v, 'S')
          if info.what == 'Lua' and info.source:find('^=luahost:') then
            host = host + 1
            local own = function() return seen end
            if not pcall(debug.upvalueid, v, 1) and not pcall(debug.upvaluejoin, own, 1, v, 1)
            then refused = refused + 1 end
          end
        elseif type(v) == 'table' then
          for _, x in pairs(v) do visit(x, depth + 1) end
        end
      end
      visit(_G, 0)
      return host, refused
      """
    let script = try Luahost.temporaryFile(
      "local h, r = (function() \(probe) end)() assert(h == r, h .. ' vs ' .. r) print(h, r)")
    let result = try Luahost.run([script])
    #expect(result.status == 0, "\(result.stderr)")
    let folder = try Luahost.temporaryFolder([
      "seal_test.lua": """
      test('host helpers are sealed', function()
        local host, refused = (function() \(probe) end)()
        assert(host > 0, 'the test runner has Lua helpers to probe')
        assert(host == refused, host .. ' host functions, ' .. refused .. ' refused')
      end)
      """
    ])
    let test = try Luahost.run(["test", "."], directory: folder)
    #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
    #expect(test.stdout.contains("1 passed"), "\(test.stdout)")
  }

  /// Issue 23: the driver coroutine is invisible. The top level behaves as under `lua5.4`
  /// (same output, byte for byte), and `timer.sleep` still waits there.
  @Test func theTopLevelIsTheMainThreadAsUnderStockLua() throws {
    let source = """
      local co, main = coroutine.running()
      print(type(co), main, coroutine.isyieldable(), coroutine.status(co))
      print(pcall(coroutine.yield, 1))
      print(pcall(coroutine.close, co))
      timer.sleep(0.01)
      local w = coroutine.wrap(function()
        print(coroutine.isyieldable(), select(2, coroutine.running()))
        coroutine.yield(5)
      end)
      w()
      print('end')
      """
    let script = try Luahost.temporaryFile(source)
    let ours = try Luahost.run([script])
    #expect(ours.status == 0, "\(ours.stderr)")
    let stockScript = try Luahost.temporaryFile("timer = { sleep = function() end }\n" + source)
    let expected = try StockLua.run([stockScript]).stdout
    #expect(ours.stdout == expected)
    #expect(expected.hasPrefix("thread\ttrue\tfalse\trunning\n"))
    // A REPL line is the top level too: pcall catches the yield, and the line goes on.
    let repl = try Luahost.run(["-i"], stdin: "print(pcall(coroutine.yield)) print('went on')\n")
    #expect(repl.stdout.contains("false\tattempt to yield from outside a coroutine"))
    #expect(repl.stdout.contains("went on"))
  }

  @Test func aScriptCannotNameItsChunkAsTheHost() throws {
    let result = try Luahost.run([
      "-e", "print(pcall(load, 'return 1', '=luahost:sandbox'))",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    // Refused as load refuses a chunk: nil and why.
    #expect(result.stdout.contains("true\tnil\tchunk names starting with '=luahost:'"))
    #expect(result.stdout.contains("are the host's"), "\(result.stdout)")
  }
}
