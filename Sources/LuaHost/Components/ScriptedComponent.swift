import Lua
import ViewTree

/// An app-defined kind of view that scripts make with `ui.<name>{ … }`: a slider, a list
/// backed by Swift state, a chart.
///
/// ```swift
/// final class Range { var value = 0.0; var bounds = 0.0...1.0 }
///
/// var slider = try ScriptedComponent("slider") { spec in
///   let range = Range()
///   range.bounds = try (spec.get("min", as: Double.self) ?? 0)...(spec.get("max", as: Double.self) ?? 1)
///   let view = View(id: try spec.id ?? "slider", kind: ViewKind("slider"))
///   view.model = range
///   return view
/// }
/// slider.property("value", get: { $0.model(as: Range.self)!.value }, set: { view, value in
///   view.model(as: Range.self)!.value = value          // a Double: converted from Lua
///   view.send("on_change", [.number(value)])            // Lua's handler runs
/// })
/// slider.property("bounds", get: { view in
///   let bounds = view.model(as: Range.self)!.bounds
///   return [bounds.lowerBound, bounds.upperBound]       // a [Double]: a table in Lua
/// })
/// slider.method("reset") { (view: View) in view.model(as: Range.self)!.value = 0 }
/// slider.method("scale") { (view: View, by: Double) in view.model(as: Range.self)!.value * by }
/// slider.event("on_change")
/// ```
///
/// In Lua: `ui.slider{ id = "volume", min = 0, max = 10, on_change = function(self, v) … end }`.
///
/// Values: Swift types, or `LuaValue`; never a conversion by hand. Properties and methods
/// take and return Swift values: any `LuaConvertible` (`Double`, `String`, `Bool?`,
/// `[String]`, `[String: Int]`, `PropertyValue`, …). What Lua passes in (a new property
/// value, a method's arguments after `self`) is converted to the declared type, and a
/// value that does not convert raises a Lua error naming it ("bad value for property
/// 'value' of slider (…)", "bad argument #1 to 'scale' (…)"); what Swift returns is
/// converted with `luaValue(in:)`, so an array or a dictionary becomes a new table. Use
/// `LuaValue` itself only for what a Swift type cannot say (any Lua value, a function),
/// and the forms whose closure also receives the `LuaState` to build a table by hand. The
/// view tree's `PropertyValue` (the values of `View.properties` and of
/// `View.send(_:_:)`) is `LuaConvertible` too: a property may return a stored
/// `view.properties[name]` as it is, and an event's values reach Lua as strings, numbers
/// and booleans. The untyped forms (`Getter`, `Setter`, `Method`, over `LuaValue` and
/// arrays of it) stay for code written against them.
///
/// Components follow the rules of the built-in kinds. A view is always the same
/// userdata; every field a view has (`id`, `parent`, `env`, `add`, `tap`, …) works on it;
/// an error in a handler, or one a method throws, goes to the nearest boundary; a plugin
/// reaches only the components inside its panel, and what it makes is charged to its
/// memory limit. The constructor's `children` and `on_error` are applied for you, and so
/// are the handlers of the events you declare.
///
/// Threads: the closures run holding `View.treeLock` (as every call from Lua into the tree
/// does), so state they share between plugins is guarded by it. They must not wait for
/// another lock. A handler that `View.send(_:_:)` runs sets the tree lock aside itself.
public struct ScriptedComponent {
  /// Reads a property of a view of this kind (untyped).
  public typealias Getter = (View) throws -> LuaValue
  /// Writes a property of a view of this kind (untyped).
  public typealias Setter = (View, LuaValue) throws -> Void
  /// A method (untyped): the view and the arguments after `self`.
  public typealias Method = (View, [LuaValue]) throws -> [LuaValue]

  /// The constructor's name in `ui`, which is also the views' `ViewKind`.
  public let name: String
  let make: (ComponentSpec) throws -> View
  /// The getters; each converts its value in the state it is given.
  @usableFromInline var getters: [String: (View, LuaState) throws -> LuaValue] = [:]
  @usableFromInline var setters: [String: Setter] = [:]
  @usableFromInline var methods: [String: ComponentMethod] = [:]
  var events: Set<String> = []

  /// The kind of the views this component makes: `ViewKind(name)`.
  public var kind: ViewKind { ViewKind(name) }
  /// Types and summaries for editors, set by `describe` (``LuaDefinitions``).
  var documentation = APIDocumentation()

  /// A component whose constructor `ui.<name>(spec)` calls `make`. `make` returns a fresh
  /// view of kind `ViewKind(name)`, usually with its `View.model` set; the default makes
  /// a plain one with the spec's `id`.
  /// - Throws: a `usage` `LuaError` when `name` is not a Lua name (letters, digits and `_`,
  ///   not starting with a digit, at most 64) or is one `ui` has already (`button`,
  ///   `root`, `find`…): refused here, where the component is made, not later where the
  ///   tree or a plugin is.
  public init(_ name: String, make: ((ComponentSpec) throws -> View)? = nil) throws {
    guard Self.isName(name) else {
      throw LuaError(
        kind: .usage,
        message:
          "component '\(name)': a name is 1 to 64 letters, digits and '_', not starting with a digit"
      )
    }
    guard !ScriptedTree.builtInNames.contains(name) else {
      throw LuaError(kind: .usage, message: "component '\(name)': ui.\(name) exists already")
    }
    self.name = name
    self.make = make ?? { spec in View(id: try spec.id ?? name, kind: ViewKind(name)) }
  }

  /// Adds an untyped property, read as `view.name` and, with a setter, written as
  /// `view.name = v`. It may take the place of `title`, `text` or `value` for views of this
  /// kind. The typed `property(_:get:set:)` converts the values for you.
  public mutating func property(_ name: String, get: @escaping Getter, set: Setter? = nil) {
    getters[name] = { view, _ in try get(view) }
    setters[name] = set
  }

  /// Adds an untyped method, called as `view:name(...)`. The typed `method(_:_:)` converts
  /// the arguments and results for you.
  public mutating func method(_ name: String, _ body: @escaping Method) {
    methods[name] = .values(body)
  }

  /// Declares an event, such as `on_change`: scripts set its handler in the constructor or
  /// as `view.name = f`, and Swift runs it with `view.send(name, values)`; Lua receives the
  /// view, then the values.
  public mutating func event(_ name: String) {
    events.insert(name)
  }

  /// Fields every view has, which a component cannot redefine.
  static let reserved: Set<String> = [
    "id", "kind", "path", "depth", "parent", "children", "env", "alert", "alerts",
    "is_boundary", "find", "add", "move", "remove", "tap", "set_value", "dismiss", "on_tap",
    "on_error",
  ]

  /// Whether `name` can be a field of `ui`: an ASCII Lua name of at most 64 bytes.
  static func isName(_ name: String) -> Bool {
    guard let first = name.utf8.first, name.utf8.count <= 64, !(48...57).contains(first) else {
      return false
    }
    return name.utf8.allSatisfy {
      ($0 | 0x20 >= 97 && $0 | 0x20 <= 122) || (48...57).contains($0) || $0 == 95
    }
  }

  /// Throws if the component redefines a field every view has, or takes a name another
  /// component of the same tree took.
  func validate(against taken: Set<String>) throws {
    func refuse(_ reason: String) -> LuaError {
      LuaError(kind: .usage, message: "component '\(name)': \(reason)")
    }
    guard !taken.contains(name) else { throw refuse("ui.\(name) exists already") }
    let fields = Set(getters.keys).union(methods.keys).union(events)
    if let clash = fields.intersection(Self.reserved).sorted().first {
      throw refuse("'\(clash)' is a field of every view")
    }
    if let clash = Set(getters.keys).intersection(methods.keys).union(
      events.intersection(getters.keys)
    ).sorted().first {
      throw refuse("'\(clash)' is defined twice")
    }
  }
}
