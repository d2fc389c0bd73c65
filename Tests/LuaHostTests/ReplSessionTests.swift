import Lua
import LuaHost
import LuaHostCLI
import TestSupport
import Testing
import ViewTree

/// The REPL's logic, driven through `ReplSession` (no process, no terminal): commands,
/// evaluation, pretty printing and completion.
@Suite(.timeLimit(.minutes(30))) struct ReplSessionTests {
  let session: ReplSession

  init() throws {
    session = try ReplSession(
      makeState: { try LuaState(sandbox: LuaSandbox()) }, makeWindow: DemoApp.makeWindow,
      profile: "profile: test", colors: false)
  }

  func output(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
    guard case .output(let text) = session.submit(line) else {
      Issue.record(
        "\(line): expected output, got \(session.submit(""))", sourceLocation: sourceLocation)
      return ""
    }
    return text
  }

  @Test func commands() throws {
    #expect(output(".help").contains(".reset"))
    #expect(output(".sandbox") == "profile: test")
    #expect(output(".tree").contains("crash (button) \"Crash\""))
    #expect(output(".alerts") == "no alerts yet")
    _ = session.submit("ui.find('crash'):tap()")
    _ = session.submit("ui.find('crash'):tap()")
    #expect(output(".alerts").contains("The Crash button crashed, as promised."))
    #expect(output(".tree").contains("[alert: Error ×2]"))
    #expect(output(".plugins") == "no plugins loaded")
    #expect(session.submit(".unload x") == .error("usage: .unload NAME"))
    #expect(session.submit(".exit") == .exit)
    let file = try Luahost.temporaryFile("return 40 + 2")
    #expect(output(".load \(file)") == "42")
  }

  /// What `.tree` and `.alerts` print of a script's text is escaped, as the alert box
  /// escapes it: a title, a text or an error message cannot set the terminal's title,
  /// clear the screen or start a line that looks like the host's (found by a hostile
  /// review: both printed it raw).
  @Test func commandsShowAScriptsTextEscaped() throws {
    _ = session.submit(#"ui.root.title = "T\27]0;pwned\7""#)
    _ = session.submit(#"ui.root:add(ui.text{ id = "x", text = "a\r\n[b] forged" })"#)
    _ = session.submit(
      #"ui.root:add(ui.button{ id = "e", on_tap = function() error("\27[2Jboom\n> fake prompt \u{202E}", 0) end }):tap()"#
    )
    for command in [".tree", ".alerts"] {
      let text = output(command)
      #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(command)")
      #expect(!text.contains("\u{202E}") && !text.contains("\n>") && !text.contains("\n[b]"))
    }
    #expect(output(".tree").contains(#""T\27]0;pwned\7""#))
    #expect(output(".alerts").contains(#"\27[2Jboom\10> fake prompt \u{202E}"#))
  }

  /// A result's strings show C1 controls, line separators and bidirectional controls
  /// escaped, as alert boxes do (the pretty printer showed them raw; a CLI review).
  @Test func resultsShowInvisibleControlsEscaped() throws {
    #expect(
      output(#"return '\u{202E}abc', '\u{2028}', utf8.char(0x9B) .. '31m', 'café'"#)
        == #""\u{202E}abc"\#t"\u{2028}"\#t"\u{9B}31m"\#t"café""#)
  }

  /// `.tree` draws at most `treeDepthLimit` levels and `treeLineLimit` lines, and counts
  /// the views it leaves out: each line repeats its ancestors' indent, so a chain 100,000
  /// views deep took gigabytes and minutes (a hostile review: 7 GB after 30 s).
  @Test func treeDrawingIsBounded() throws {
    // No deadline on building the tree: each `add` takes the process's tree lock, which
    // the other suites' tests hold too, and under a sanitizer the 10 s default ran out
    // (the tree was left half built, a fresh-clone run).
    try session.tree.withState { $0.timeout = nil }
    let built = session.submit(
      """
      local top = ui.group{ id = "g" }
      for i = 1, 900 do local p = ui.group{ id = "g" } p:add(top) top = p end
      ui.root:add(top)
      local wide = ui.root:add(ui.group{ id = "wide" })
      for i = 1, 6000 do wide:add(ui.text{ id = "w" }) end
      """)
    #expect(built == .output(""), "\(built)")
    let lines = output(".tree").split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count <= ReplSession.treeLineLimit + 2)
    #expect(lines.allSatisfy { $0.count < 8 * ReplSession.treeDepthLimit + 200 })
    #expect(
      lines.contains {
        $0.hasSuffix("└─ … \(901 - ReplSession.treeDepthLimit) more views nested deeper")
      })
    #expect(
      lines.last?.hasPrefix("… ") == true && lines.last?.hasSuffix("more views not drawn") == true)
  }

  /// A line of `.tree` shows at most `treeTextLimit` bytes of a view's title and text:
  /// the drawing holds the tree lock, and escaped a 30 MB text whole (0.74 s, a review).
  @Test func treeDrawingCutsLongTexts() throws {
    let built = session.submit(
      "local v = ui.root:add(ui.text{ id = 'long', title = ('t'):rep(1 << 20), text = ('x'):rep(300) })"
    )
    #expect(built == .output(""), "\(built)")
    let limit = ReplSession.treeTextLimit
    let line = output(".tree").split(separator: "\n").first { $0.contains("long (text)") }
    #expect(
      line?.hasSuffix(
        "long (text) \"\(String(repeating: "t", count: limit))… (\((1 << 20) - limit) more bytes)\" \"\(String(repeating: "x", count: limit))… (\(300 - limit) more bytes)\""
      ) == true, "\(String(describing: line?.suffix(200)))")
  }

  @Test func resetGivesAFreshStateAndKeepsThePlugins() throws {
    let container = try #require(session.tree.root.find("plugins"))
    let host = PluginHost(container: container, limits: LuaSandbox()) { _ in }
    _ = try host.load(path: Luahost.fixture("plugins/clock.lua"))
    session.pluginHost = host
    _ = session.submit("x = 1")
    #expect(output(".reset") == "fresh state and app tree")
    #expect(output("x") == "nil")
    // The plugins moved into the new window: found there, with their full path.
    #expect(output(".plugins").contains("root/plugins/clock"))
    #expect(output("ui.find('clock') ~= nil") == "true")
    #expect(session.tree.root.find("plugins") === container)
    #expect(output(".reload clock") == "reloaded clock")
    #expect(output(".unload clock") == "unloaded clock")
    #expect(output(".plugins") == "no plugins loaded")
  }

  @Test func prettyPrinting() throws {
    #expect(output("{b = 2, a = 1, 10, 20}") == "{ 10, 20, a = 1, b = 2 }")
    #expect(output("local t = {} t.self = t return t") == "{ self = <cycle> }")
    #expect(output("{{{{1}}}}") == "{ { { {…} } } }")
    let many = output("local t = {} for i = 1, 30 do t[i] = i end return t")
    #expect(many.hasSuffix("… (6 more) }"))
    #expect(output("'a\\0b\\n'") == "\"a\\0b\\n\"")
    #expect(output("_") == "\"a\\0b\\n\"")
    #expect(output("1, 'two'") == "1\t\"two\"")
  }

  @Test func completionRunsNoScriptCode() throws {
    _ = session.submit("called = 0")
    _ = session.submit(
      "spy = setmetatable({}, {__index = function() called = called + 1 return 1 end})")
    let completer = Completer(lua: session.lua)
    #expect(completer.completions(for: "spy.x").isEmpty)
    #expect(completer.completions(for: "ui.ro").contains("ui.root"))
    #expect(output("called") == "0")
  }

  /// Completion offers only names the line can hold as `t.name`: a key with escape
  /// sequences reached the terminal raw in the completion list (a hostile review).
  @Test func completionOffersOnlyNames() throws {
    _ = session.submit(#"_G["a\27]0;PWN\7b"] = {} ab = 1 t = {["x\27y"] = 1, xy = 2, ["x y"] = 3}"#)
    _ = session.submit(#"t["1x"] = 4 t["end"] = 5 t._x9 = 6"#)
    let completer = Completer(lua: session.lua)
    #expect(completer.completions(for: "a").filter { $0.hasPrefix("a") }.sorted().contains("ab"))
    #expect(!completer.completions(for: "a").contains { $0.contains("\u{1B}") })
    #expect(completer.completions(for: "t.").sorted() == ["t._x9", "t.xy"])
  }

  /// After a colon, a Swift object offers its methods, not its properties (`ui.root:kind()`
  /// fails; a CLI review); after a dot, both.
  @Test func completionAfterAColonOffersMethods() throws {
    let completer = Completer(lua: session.lua)
    let methods = completer.completions(for: "ui.root:")
    #expect(methods.contains("ui.root:find") && methods.contains("ui.root:add"), "\(methods)")
    #expect(!methods.contains("ui.root:kind") && !methods.contains("ui.root:id"), "\(methods)")
    let fields = completer.completions(for: "ui.root.")
    #expect(fields.contains("ui.root.kind") && fields.contains("ui.root.find"), "\(fields)")
  }

  @Test func unfinishedChunksContinue() throws {
    #expect(session.submit("function f()") == .incomplete)
    #expect(session.prompt == ">> ")
    #expect(session.submit("return 7 end") == .output(""))
    #expect(output("f()") == "7")
  }

  /// A front end that drops its session while a line waits (a console closed during
  /// `timer.sleep`) still gets the line's reply: the evaluation keeps its session.
  @Test func aWaitingLineOutlivesItsSession() async throws {
    // No deadline: under a loaded suite, the cooperative pool may start the sleep's task
    // late.
    var sandbox = LuaSandbox()
    sandbox.timeout = nil
    var session: ReplSession? = try ReplSession(
      makeState: { try LuaState(sandbox: sandbox) }, makeWindow: DemoApp.makeWindow,
      profile: "profile: test", colors: false)
    guard case .waiting(let evaluation) = session!.submit("timer.sleep(0.001) return 6 * 7")
    else {
      Issue.record("the line did not wait")
      return
    }
    session = nil
    let reply = await evaluation.reply()
    #expect(reply == .output("42"), "\(reply)")
  }
}
