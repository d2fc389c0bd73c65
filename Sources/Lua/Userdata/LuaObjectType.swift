/// Describes how a Swift class appears to Lua as userdata: its methods, properties and
/// metamethods. Build one in ``LuaState/register(_:name:_:)``.
///
/// Methods and metamethods receive the object and the remaining arguments; a call on a
/// value that is not an object of this type fails with a clear Lua error, never a crash.
///
/// Methods and properties come in two forms. The untyped ones here speak ``LuaValue``
/// (arrays of arguments and results). The typed ones (LuaObjectType+Typed.swift) take
/// Swift types, as the typed `LuaState.register(_:_:)` does: arguments and new property
/// values are converted from Lua, read in place, and one that does not convert raises a
/// Lua error naming the argument or the property; results are converted with
/// `luaValue(in:)`, so a getter may return `[String]` or `[String: Int]` for a table.
public struct LuaObjectType<Object: AnyObject> {
  /// A method: the object and the arguments after `self`.
  public typealias Method = (Object, [LuaValue]) throws -> [LuaValue]

  /// The type name Lua shows (`__name`, `tostring`, error messages).
  public let name: String
  /// What makes each method's Lua function, in the state the type is registered in.
  @usableFromInline var methods: [String: (LuaState) throws -> LuaFunction] = [:]
  /// The property getters; each converts its value in the state it is given.
  @usableFromInline var getters: [String: (Object, LuaState) throws -> LuaValue] = [:]
  /// The same getters as `__index` runs them: each pushes its value, and reads the state
  /// only if its value needs one (a table), so a scalar property costs no weak load. Each
  /// takes the object as `AnyObject` and downcasts it unchecked: only `__index` calls them,
  /// after its receiver check, and a wrapper that downcasts would cost a closure call a
  /// read.
  @usableFromInline var readers: [String: (AnyObject, LuaArguments) throws -> Void] = [:]
  @usableFromInline var setters: [String: (Object, LuaValue) throws -> Void] = [:]
  var metamethods: [LuaMetamethod: ([LuaValue]) throws -> [LuaValue]] = [:]
  var fallbackGet: ((Object, LuaValue) throws -> LuaValue)?
  var fallbackSet: ((Object, LuaValue, LuaValue) throws -> Void)?

  init(name: String) { self.name = name }

  /// Adds a method, called as `object:name(...)`.
  public mutating func method(_ name: String, _ body: @escaping Method) {
    let typeName = self.name
    methods[name] = { state in
      try state.function { arguments in
        try body(
          LuaState.unwrap(arguments.first, as: Object.self, name: typeName),
          Array(arguments.dropFirst()))
      }
    }
  }

  /// Adds a property, read as `object.name` and, with a setter, written as
  /// `object.name = value`.
  public mutating func property(
    _ name: String, get: @escaping (Object) throws -> LuaValue,
    set: ((Object, LuaValue) throws -> Void)? = nil
  ) {
    getters[name] = { object, _ in try get(object) }
    readers[name] = { object, arguments in
      try arguments.pushValue(get(unsafeDowncast(object, to: Object.self)))
    }
    setters[name] = set
  }

  /// Handles reads of keys that are neither properties nor methods (by default they are
  /// `nil`), e.g. for objects with dynamic fields.
  public mutating func index(_ body: @escaping (Object, LuaValue) throws -> LuaValue) {
    fallbackGet = body
  }

  /// Handles writes of keys that are not settable properties (by default an error).
  public mutating func newIndex(_ body: @escaping (Object, LuaValue, LuaValue) throws -> Void) {
    fallbackSet = body
  }

  /// Adds a metamethod. `body` receives all of Lua's operands (e.g. both sides of `+`),
  /// which need not be objects of this type; use ``LuaUserdata/object(as:)`` to unwrap.
  /// `__index`, `__newindex` and `__gc` are reserved for methods, properties and lifetime.
  public mutating func metamethod(
    _ event: LuaMetamethod, _ body: @escaping ([LuaValue]) throws -> [LuaValue]
  ) {
    metamethods[event] = body
  }
}

/// A metamethod a Swift type can define for its userdata.
public enum LuaMetamethod: String, Sendable, CaseIterable {
  /// `a + b`
  case add = "__add"
  /// `a - b`
  case sub = "__sub"
  /// `a * b`
  case mul = "__mul"
  /// `a / b`
  case div = "__div"
  /// `a % b`
  case mod = "__mod"
  /// `-a`
  case unm = "__unm"
  /// `a .. b`
  case concat = "__concat"
  /// `#a`
  case len = "__len"
  /// `a == b`
  case eq = "__eq"
  /// `a < b`
  case lt = "__lt"
  /// `a <= b`
  case le = "__le"
  /// `a(...)`
  case call = "__call"
  /// `tostring(a)`
  case tostring = "__tostring"
  /// Leaving the scope of a `<close>` variable.
  case close = "__close"
}
