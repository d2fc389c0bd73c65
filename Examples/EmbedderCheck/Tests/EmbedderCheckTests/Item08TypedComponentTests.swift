import Lua
import LuaHost
import Testing
import ViewTree

/// Item 8: components and userdata take typed parameters, may return nothing or a tuple,
/// can return tables, and speak one value type (`PropertyValue` converts by itself).
final class Account {
  var balance = 0
}

@Suite(.timeLimit(.minutes(10))) struct Item08TypedComponentTests {
  @Test func typedComponentMethodsPropertiesAndResults() throws {
    var gauge = try ScriptedComponent("gauge")
    gauge.property("level", get: { $0.properties["level"] }, set: { $0.properties["level"] = $1 })
    gauge.method("mark") { (view: View, name: String, times: Int) in
      view.properties[name] = .integer(times)
    }
    gauge.method("range") { (view: View) in (0, 100) }
    gauge.property("names", get: { view in view.properties.keys.sorted() })
    let tree = try ScriptedTree(
      lua: LuaState(sandbox: patientLimits), root: View.window(id: "app"), components: [gauge])
    let results = try tree.run(
      """
      local g = ui.root:add(ui.gauge{ id = 'g' })
      g.level = 0.5
      g:mark('errors', 3)
      local low, high = g:range()
      return g.level, low, high, table.concat(g.names, ','), select('#', g:mark('x', 1))
      """)
    #expect(results == [0.5, 0, 100, "errors,level", 0])
    let error = try #require(throws: LuaError.self) {
      try tree.run("ui.root:find('g'):mark(1, 'three')")
    }
    #expect(
      error.message.contains("bad argument #2 to 'mark' (integer expected, got string)"),
      "\(error.message)")
  }

  @Test func typedUserdataAndTupleCalls() throws {
    let lua = try LuaState(sandbox: patientLimits)
    try lua.register(Account.self, name: "Account") { type in
      type.property("balance", get: { $0.balance })
      type.method("deposit") { (account: Account, amount: Int) in account.balance += amount }
    }
    try lua.globals().set("account", lua.userdata(Account()))
    try lua.register("log") { (_: String) in }  // returns nothing
    let split = try lua.load("local s = ... return s:sub(1, 1), #s")
    let (first, count) = try split.call("hello", returning: (String, Int).self)
    #expect(first == "h" && count == 5)
    #expect(try lua.run("account:deposit(5) log('ok') return account.balance") == [5])
  }
}
