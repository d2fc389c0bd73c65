import Lua
import Synchronization
import Testing

@Suite struct SandboxTests {
  let lines = Lines()
  let lua: LuaState

  final class Lines: Sendable {
    let value = Mutex<[String]>([])
    var all: [String] { value.withLock { $0 } }
  }

  init() throws {
    var sandbox = LuaSandbox()
    sandbox.timeout = .milliseconds(200)
    sandbox.memoryLimit = 8 << 20
    let lines = self.lines
    sandbox.output = { line in lines.value.withLock { $0.append(line) } }
    lua = try LuaState(sandbox: sandbox)
  }

  func message(_ code: String) throws -> String {
    do {
      try lua.run(code, name: "=plugin")
    } catch let error as LuaError {
      return error.message
    }
    Issue.record("expected \(code) to fail")
    return ""
  }

  @Test func dangerousLibrariesAreAbsent() throws {
    let results = try lua.run(
      "return io, debug, package, dofile, loadfile, string.dump, os.execute, os.exit, os.getenv, type(os.clock), type(os.time)")
    #expect(results == [.nil, .nil, .nil, .nil, .nil, .nil, .nil, .nil, .nil, "function", "function"])
  }

  @Test func loadIsTextOnly() throws {
    #expect(try lua.run("return load('return 1 + 1')()") == [2])
    let binary = try lua.run("local ok, err = load('\\27Lua') return ok, err")
    #expect(binary[0] == .nil)
    #expect(try String(luaValue: binary[1]).contains("binary chunk"))
  }

  @Test func gcMetamethodsAndGlobalSwitchesAreRefused() throws {
    #expect(try message("setmetatable({}, {__gc = function() while true do end end})").contains("__gc"))
    #expect(try message("collectgarbage('stop')").contains("only 'count'"))
    #expect(try lua.run("return type(collectgarbage('count'))") == ["number"])
    #expect(try lua.run("return getmetatable('')") == ["locked"])
    #expect(try message("getmetatable('').__index = {}").contains("index"))
  }

  @Test func outputGoesToTheHost() throws {
    try lua.run("print('hello', 1, nil, true) warn('@on') warn('careful')")
    #expect(lines.all == ["hello\t1\tnil\ttrue", "Lua warning: careful"])
  }

  @Test func longCCallsAreCapped() throws {
    #expect(try message("string.rep('x', 4e8)").contains("too large"))
    var roomy = LuaSandbox()
    roomy.memoryLimit = nil
    roomy.maxSortLength = 1000
    let big = try LuaState(sandbox: roomy)
    let error = try #require(throws: LuaError.self) {
      try big.run("local t = {} for i = 1, 1001 do t[i] = -i end table.sort(t)")
    }
    #expect(error.message.contains("too many"))
    #expect(try big.run("local t = {3, 1, 2} table.sort(t) return t[1]") == [1])
  }

  @Test func limitsAreOnByDefault() throws {
    #expect(try message("while true do end") == "execution timed out")
    #expect(try message("local t = {} for i = 1, 1e8 do t[i] = i end").contains("not enough memory"))
    #expect(try lua.run("return 'still here'") == ["still here"])
  }

  @Test func xpcallHandlersDoNotRunForStops() throws {
    let text = try message("xpcall(function() while true do end end, function() while true do end end)")
    #expect(text == "execution timed out")
    #expect(try lua.run("return xpcall(error, function(e) return 'handled ' .. e end, 'x')") == [false, "handled x"])
  }

  @Test func requireLoadsOnlyTextModulesFromTheFolder() throws {
    let noFolder = try message("require('json')")
    #expect(noFolder.contains("not found"))
    #expect(try lua.run("return require('string') == string") == [true])
  }
}
