import Foundation
import Lua
import LuaHost
import TestSupport
import Testing
import ViewTree

/// `LuaDefinitions` and `PluginHost.definitions()`, the library call apps use: what they
/// read from the live API, and how an app's components and modules carry their docs.
@Suite(.timeLimit(.minutes(30))) struct LuaDefinitionsTests {
  /// A component and a module as an app declares and describes them.
  static func documentedHost() throws -> PluginHost {
    var slider = try ScriptedComponent("slider")
    slider.property("value", get: { _ in .number(0) }, set: { _, _ in })
    slider.property("bounds", get: { _ in .nil })
    slider.method("scale") { _, _ in [.number(0)] }
    slider.method("reset") { _, _ in [] }
    slider.method("mute") { _, _ in [] }
    slider.event("on_change")
    slider.describe("A slider between min and max.")
    slider.describe("value", LuaDoc("number", "The position, between min and max."))
    slider.describe(
      "scale", .function(["by: number"], returns: ["number"], "Multiplies the value."))
    slider.describe("on_change", .function(["value: number"], "Runs when the value changes."))
    slider.describe("mute", .function("Sets the value to 0."))
    slider.describe(option: "min", LuaDoc("number?", "The lowest value (0)."))
    slider.describe("volume", LuaDoc("number", "A field the component does not have."))
    var settings = try HostModule("settings", capability: "settings") { lua in
      let module = try lua.makeTable()
      try module.set("volume", .function(lua.function { _ in [.number(7)] }))
      let store = try lua.makeTable()
      try store.set("count", .integer(3))
      try module.set("store", .table(store))
      return .table(module)
    }
    settings.describe("The app's settings.")
    settings.describe("volume", .function(returns: ["number"], "The volume, 0 to 10."))
    settings.describe("store.count", LuaDoc("integer", "How many settings are stored."))
    return PluginHost(
      container: View.stack(id: "plugins"), components: [slider], modules: [settings],
      output: { _ in })
  }

  @Test func luahostsOwnAPIIsFullyDocumented() throws {
    // Every name the live API has carries a type and a summary, and every summary names
    // something the live API has: nothing is hand-listed that could drift.
    let definitions = try PluginHost(container: View.stack(id: "plugins"), output: { _ in })
      .definitions()
    #expect(definitions.notes == [])
    #expect(
      definitions.files.map(\.path) == [".luarc.json", ".luacheckrc", ".luahost/luahost-api.lua"])
  }

  @Test func componentsAndModulesCarryTheirTypesAndDocs() throws {
    let definitions = try Self.documentedHost().definitions(generator: "a test")
    let api = try #require(definitions.files.first { $0.path == ".luahost/luahost-api.lua" })
    let text = api.contents
    #expect(
      text.contains(
        "---A slider between min and max. A string is its id.\n---@param spec? sliderSpec|string\n---@return slider\nfunction ui.slider(spec) end\n"
      ))
    #expect(text.contains("---A slider between min and max.\n---@class slider: View\n"))
    #expect(text.contains("---@field value number The position, between min and max.\n"))
    #expect(
      text.contains(
        "---@field on_change (fun(self: slider, value: number))? Runs when the value changes.\n"))
    #expect(
      text.contains(
        "---Multiplies the value.\n---@param by number\n---@return number\nfunction slider:scale(by) end\n"
      ))
    #expect(text.contains("---Sets the value to 0.\nfunction slider:mute() end\n"))
    #expect(text.contains("---@class sliderSpec: ComponentSpec\n"))
    #expect(text.contains("---@field min number? The lowest value (0).\n"))
    let module = try #require(definitions.files.first { $0.path == ".luahost/settings.lua" })
    #expect(module.contents.hasPrefix("---@meta settings\n"))
    #expect(
      module.contents.contains(
        "---@class settings.store\n---@field count integer How many settings are stored.\nlocal settings_store = {}\n"
      ))
    #expect(
      module.contents.contains(
        "---The app's settings.\n---@class settings\n---@field store settings.store\nlocal settings = {}\n"
      ))
    #expect(
      module.contents.contains(
        "---The volume, 0 to 10.\n---@return number\nfunction settings.volume() end\n"))
    #expect(module.contents.hasSuffix("\nreturn settings\n"))
    // What the app left undocumented, or documented without declaring, is named.
    #expect(definitions.notes.contains("slider.bounds is not documented"))
    #expect(definitions.notes.contains("slider.reset is not documented"))
    #expect(
      definitions.notes.contains("slider.volume is documented but the component has no such field"))
    for file in definitions.files where file.path.hasSuffix(".lua") || file.path == ".luacheckrc" {
      let lua = try LuaState(libraries: .all)
      defer { lua.close() }
      _ = try lua.load(file.contents, name: "=" + file.path)  // valid Lua
    }
  }

  @Test func luacheckKnowsTheAppsComponents() throws {
    let folder = try Luahost.temporaryFolder([
      "good/init.lua": """
      local slider = ui.root:add(ui.slider{ id = "volume", min = 0 })
      slider.value = 3

      """,
      "bad/init.lua": "ui.root:add(ui.slidr{ id = \"volume\" })\n",
    ])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Self.documentedHost().definitions().write(to: folder)
    let good = try Luacheck.run(["good"], directory: folder)
    #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
    let bad = try Luacheck.run(["bad"], directory: folder)
    #expect(bad.status == 1)
    #expect(bad.stdout.contains("accessing undefined field 'slidr' of global 'ui'"))
  }

  @Test func writeLeavesAConfigOfTheUsersOwnAlone() throws {
    let folder = try Luahost.temporaryFolder([".luacheckrc": "std = \"max\"\n"])
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let definitions = try PluginHost(container: View.stack(id: "plugins"), output: { _ in })
      .definitions()
    #expect(throws: LuaDefinitions.CannotWrite.self) { try definitions.write(to: folder) }
    #expect(
      try String(contentsOfFile: folder + "/.luacheckrc", encoding: .utf8) == "std = \"max\"\n")
    #expect(!FileManager.default.fileExists(atPath: folder + "/.luahost"))
    // Its own files it replaces.
    try FileManager.default.removeItem(atPath: folder + "/.luacheckrc")
    try definitions.write(to: folder)
    try definitions.write(to: folder)
  }
}
