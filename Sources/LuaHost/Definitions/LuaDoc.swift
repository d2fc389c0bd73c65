/// What an editor is told about one field of the Lua API: its type, in the notation of the
/// Lua language server (LuaLS: `number`, `string?`, `View`, `fun(id: string): View?`), and
/// a one-line summary. ``LuaDefinitions`` (and `luahost definitions`) write it out.
///
/// ```swift
/// slider.describe("value", LuaDoc("number", "The position, between min and max."))
/// slider.describe("scale", .function(["by: number"], returns: ["number"], "Multiplies the value."))
/// ```
public struct LuaDoc: Sendable, Hashable {
  /// One parameter of a function, written `"name: type"`: `"by: number"`, `"label?: string"`
  /// for one that may be left out, `"...: any"` for the rest.
  public struct Parameter: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The name, with a `?` at its end when the parameter may be left out.
    public var name: String
    /// Its LuaLS type.
    public var type: String

    /// A parameter named `name` of type `type`.
    public init(_ name: String, _ type: String) {
      self.name = name
      self.type = type
    }

    /// Reads `"name: type"`; a text without `:` is a name of type `any`.
    public init(stringLiteral text: String) {
      guard let colon = text.firstIndex(of: ":") else {
        self.init(text, "any")
        return
      }
      self.init(
        String(text[..<colon]).trimmingSpaces,
        String(text[text.index(after: colon)...]).trimmingSpaces)
    }

    /// The name as Lua code writes it: without the `?`.
    var plainName: String { name.hasSuffix("?") ? String(name.dropLast()) : name }
  }

  /// The value's LuaLS type; for a function, its `fun(…)` type.
  public var type: String
  /// One line about it.
  public var summary: String
  /// A function's parameters (after `self`, for a method or an event); nil when the value
  /// is not documented as a function.
  public var parameters: [Parameter]?
  /// A function's results, as LuaLS types.
  public var results: [String]

  /// A value of LuaLS type `type`, such as `"number"` or `"fun(view: View)"`.
  public init(_ type: String, _ summary: String) {
    self.type = type
    self.summary = summary
    parameters = nil
    results = []
  }

  /// A function taking `parameters` (after `self`, for a method or an event) and returning
  /// `results`.
  public static func function(
    _ parameters: [Parameter], returns results: [String] = [], _ summary: String
  ) -> LuaDoc {
    var doc = LuaDoc("", summary)
    doc.parameters = parameters
    doc.results = results
    doc.type = doc.functionType(selfType: nil)
    return doc
  }

  /// A function taking no parameters (after `self`, for a method) and returning `results`.
  public static func function(returns results: [String] = [], _ summary: String) -> LuaDoc {
    function([], returns: results, summary)
  }

  /// Whether the doc describes a function by its parameters.
  var isFunction: Bool { parameters != nil }

  /// The LuaLS `fun(…)` type, with `self: selfType` first when given:
  /// `fun(self: View, child: View, position?: integer): View`.
  func functionType(selfType: String?) -> String {
    let receiver = selfType.map { [Parameter("self", $0)] } ?? []
    let list = (receiver + (parameters ?? [])).map { "\($0.name): \($0.type)" }
    let returns = results.isEmpty ? "" : ": " + results.joined(separator: ", ")
    return "fun(" + list.joined(separator: ", ") + ")" + returns
  }
}

extension String {
  /// The text without spaces at either end.
  var trimmingSpaces: String {
    let trimmed = drop { $0 == " " }
    return String(trimmed.reversed().drop { $0 == " " }.reversed())
  }
}
