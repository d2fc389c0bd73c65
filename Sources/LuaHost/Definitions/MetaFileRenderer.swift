/// Writes the LuaLS definition files (`---@meta`): valid Lua whose annotations describe the
/// API, with empty bodies. The API's globals go in files LuaLS cannot `require`
/// (`---@meta _`); each module in a file named after it (`---@meta tasks`, `tasks.lua`),
/// which is what `require "tasks"` finds.
enum MetaFileRenderer {
  /// The files, by path inside the definitions folder: `luahost-api.lua`, then
  /// `luahost-testing.lua` when there are testing globals, then one per module. The
  /// hyphen keeps them apart from any module's file (a module's name has none).
  static func files(of set: DefinitionSet, generator: String) -> [(path: String, contents: String)]
  {
    var files = [("luahost-api.lua", globalsFile(.api, of: set, generator: generator))]
    if set.globals.contains(where: { $0.file == .testing }) {
      files.append(("luahost-testing.lua", globalsFile(.testing, of: set, generator: generator)))
    }
    for module in set.modules {
      let path = module.name.split(separator: ".").joined(separator: "/") + ".lua"
      files.append((path, moduleFile(module, of: set, generator: generator)))
    }
    return files
  }

  private static func header(_ generator: String, what: String) -> String {
    """
    -- \(what), for the Lua language server (LuaLS).
    -- Generated from the live LuaHost API by \(generator); run it again instead of editing.

    """
  }

  private static func globalsFile(_ file: DefinitionFile, of set: DefinitionSet, generator: String)
    -> String
  {
    var text =
      "---@meta _\n"
      + header(
        generator,
        what: file == .api ? "The globals a LuaHost plugin sees" : "What luahost test adds")
    for global in set.globals where global.file == file {
      if let className = global.valueClass, let definition = set.class(className) {
        text += "\n" + classText(definition, declaring: global.name + " = {}", owner: global.name)
      } else if global.doc.isFunction {
        text += "\n" + functionText(global.doc, declaring: "function \(global.name)")
      } else {
        text +=
          "\n" + comment(global.doc.summary) + "---@type \(global.doc.type)\n\(global.name) = nil\n"
      }
    }
    let globalNames = Set(set.globals.map(\.name))
    for definition in set.classes
    where definition.file == file && !globalNames.contains(definition.name) {
      let local = localName(definition.name)
      text += "\n" + classText(definition, declaring: "local \(local) = {}", owner: local)
    }
    return text
  }

  private static func moduleFile(
    _ module: (name: String, valueClass: String?, doc: LuaDoc), of set: DefinitionSet,
    generator: String
  ) -> String {
    var text = "---@meta \(module.name)\n" + header(generator, what: "The module \(module.name)")
    let local = localName(module.name)
    guard module.valueClass != nil else {
      text += "\n"
      text +=
        module.doc.isFunction
        ? functionText(module.doc, declaring: "local function \(local)")
        : comment(module.doc.summary) + "---@type \(module.doc.type)\nlocal \(local)\n"
      return text + "\nreturn \(local)\n"
    }
    // Nested classes first, the module's own last: each file is read top to bottom.
    for definition in set.classes where definition.file == .module(module.name) {
      let owner = localName(definition.name)
      text += "\n" + classText(definition, declaring: "local \(owner) = {}", owner: owner)
    }
    return text + "\nreturn \(local)\n"
  }

  /// A class: its annotations and value fields, the table that declares it, then a
  /// declaration per function and method.
  private static func classText(_ definition: DefinitionClass, declaring: String, owner: String)
    -> String
  {
    var text = comment(definition.summary)
    text += "---@class \(definition.name)" + (definition.parent.map { ": " + $0 } ?? "") + "\n"
    if let call = definition.call { text += "---@overload \(call.functionType(selfType: nil))\n" }
    if definition.isOpen { text += "---@field [string] any\n" }
    for field in definition.fields where field.kind == .value || !field.doc.isFunction {
      let summary = oneLine(field.doc.summary)
      text += "---@field \(field.name) \(oneLine(field.doc.type))"
      text += summary.isEmpty ? "\n" : " \(summary)\n"
    }
    text += declaring + "\n"
    for field in definition.fields where field.kind != .value && field.doc.isFunction {
      let separator = field.kind == .method ? ":" : "."
      text +=
        "\n" + functionText(field.doc, declaring: "function \(owner)\(separator)\(field.name)")
    }
    return text
  }

  /// A function with empty body: its summary, `@param` and `@return` lines.
  private static func functionText(_ doc: LuaDoc, declaring: String) -> String {
    var text = comment(doc.summary)
    for parameter in doc.parameters ?? [] {
      text += "---@param \(oneLine(parameter.name)) \(oneLine(parameter.type))\n"
    }
    for result in doc.results { text += "---@return \(oneLine(result))\n" }
    let names = (doc.parameters ?? []).map(\.plainName).joined(separator: ", ")
    return text + "\(declaring)(\(names)) end\n"
  }

  /// A summary as a doc comment line, or nothing.
  private static func comment(_ summary: String) -> String {
    let line = oneLine(summary)
    return line.isEmpty ? "" : "---\(line)\n"
  }

  /// `text` on one line: a line break or other control character would end the comment
  /// and leave the rest as code.
  static func oneLine(_ text: String) -> String {
    String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
  }

  /// A class name as a Lua local (a nested module class's dots become `_`).
  private static func localName(_ name: String) -> String {
    name.replacingDots
  }
}

extension String {
  /// The text with each `.` as `_`.
  fileprivate var replacingDots: String { String(map { $0 == "." ? "_" : $0 }) }
}
