import Lua
import ViewTree

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension DefinitionWalker {
  /// Walks the classes behind `ui` and `timer` in `tree`'s state, each from a live value:
  /// `View` from `ui.root` (what a script may assign is probed on a view the walk makes),
  /// `Environment` from `ui.root.env`, `UIError` from a `ui.error{…}`, `Timer` from a
  /// handle, `Alert` and `AlertHandler` from a real alert's table; then the app's
  /// components. Call after the globals are walked, holding the state's lock.
  mutating func walkTree(_ tree: ScriptedTree) throws {
    objectClasses[ObjectIdentifier(View.self)] = "View"
    objectClasses[ObjectIdentifier(ScriptedEnvironment.self)] = "Environment"
    objectClasses[ObjectIdentifier(ScriptedErrorValue.self)] = "UIError"
    objectClasses[ObjectIdentifier(ScheduledTimer.self)] = "Timer"
    let root = try tree.value(tree.root)
    let probe = try tree.value(View.treeLock.withLock { try tree.makeView(.stack, spec: .nil) })
    set.classes.append(
      try walkClass("View", of: root, file: .api, settable: settableFields(of: probe)))
    try walkEnvironment(of: root)
    let errorSpec = try lua.makeTable()
    try errorSpec.set("message", "a sample")
    let error = try tree.makeErrorValue(.table(errorSpec))
    set.classes.append(try walkClass("UIError", of: error, file: .api))
    set.classes.append(
      try walkClass("Timer", of: lua.userdata(ScheduledTimer(tree: tree)), file: .api))
    let alert = try sampleAlert(in: tree)
    set.classes.append(try walkClass("Alert", of: alert, file: .api))
    if case .table(let table) = alert, case .table(let handlers) = try table.rawGet("handlers") {
      set.classes.append(try walkClass("AlertHandler", of: handlers.rawGet(1), file: .api))
    }
    for name in ["ViewSpec", "ComponentSpec", "UIErrorSpec"] {
      set.classes.append(specClass(name, fields: BuiltInDocumentation.specs[name] ?? [:]))
    }
    for component in tree.components.values.sorted(by: { $0.name < $1.name }) {
      walkComponent(component)
    }
  }

  /// The fields of a view that a script may assign: each is tried, on a view the walk made,
  /// by assigning the field its own value inside `pcall` (a refused one raises "read-only",
  /// a method "cannot set field").
  private func settableFields(of view: LuaValue) throws -> Set<String> {
    let names = try lua.value(lua.fieldNames(of: view))
    let probe = try lua.load(
      """
      local view, names = ...
      local settable = {}
      for _, name in ipairs(names) do
        if pcall(function() view[name] = view[name] end) then settable[#settable + 1] = name end
      end
      return settable
      """, name: "=luahost definitions")
    return Set(try [String](luaValue: probe.call(view, names).first ?? .nil))
  }

  /// `Environment`: its fields are looked up by name, so the documented ones are the
  /// class, each checked against the live value (an entry the value does not have is a
  /// note); any other field reads and writes an inherited value.
  private mutating func walkEnvironment(of root: LuaValue) throws {
    guard let environment = lua.rawField(of: root, "env") else {
      set.notes.append("View.env is missing")
      return
    }
    var definition = DefinitionClass(
      name: "Environment", summary: summary(of: "Environment"), isOpen: true)
    let read = try lua.load("local env, name = ... return env[name]", name: "=luahost definitions")
    for key in documentation.keys.sorted() where key.hasPrefix("Environment.") {
      let name = String(key.dropFirst("Environment.".count))
      let value = try read.call(environment, .string(LuaString(name))).first ?? .nil
      guard !value.isNil else { continue }  // noted as unused at the end
      definition.fields.append(field(name, of: "Environment", value: value, undocumentedKind: nil))
    }
    set.classes.append(definition)
  }

  /// A real alert as Lua gets it (`view.alert`), with every field an alert can have: a
  /// boundary made here shows it for an error that has a location, a traceback, a failure
  /// reason and a recovery suggestion.
  private func sampleAlert(in tree: ScriptedTree) throws -> LuaValue {
    try View.treeLock.withLock {
      let boundary = View.boundary(id: "definitions")
      let button = View.button("Fail", id: "fail") { _ in throw SampleFailure() }
      _ = try boundary.add(button)
      _ = button.tap()
      guard let alert = boundary.alert else {
        throw LuaError(
          kind: .usage, message: "luahost definitions: the sample alert was not raised")
      }
      return try tree.table(alert, boundary: boundary)
    }
  }

  /// A class of a constructor's table, from its documented fields.
  private mutating func specClass(_ name: String, fields: [String: LuaDoc]) -> DefinitionClass {
    var definition = DefinitionClass(name: name, summary: summary(of: name))
    definition.fields = fields.sorted { $0.key < $1.key }.map { name, doc in
      DefinitionField(name: name, kind: .value, doc: doc, isSettable: true)
    }
    return definition
  }

  /// An app's component: a class of its views (a `View` with the component's properties,
  /// methods and events, as the bridge serves them) and one of its constructor's table.
  private mutating func walkComponent(_ component: ScriptedComponent) {
    let name = component.name
    let docs = component.documentation
    var definition = DefinitionClass(
      name: name, parent: "View", summary: docs.summary ?? "An app-defined kind of view.")
    var spec = DefinitionClass(
      name: name + "Spec", parent: "ComponentSpec",
      summary: "The table ui.\(name) takes.")
    if docs.summary == nil { set.notes.append("component \(name) has no summary") }
    func doc(_ field: String, _ fallback: LuaDoc) -> LuaDoc {
      if let doc = docs.fields[field] { return doc }
      set.notes.append("\(name).\(field) is not documented")
      return fallback
    }
    for property in component.getters.keys.sorted() {
      definition.fields.append(
        DefinitionField(
          name: property, kind: .value, doc: doc(property, LuaDoc("any", "")),
          isSettable: component.setters[property] != nil))
    }
    for method in component.methods.keys.sorted() {
      let methodDoc = doc(method, untypedFunction)
      definition.fields.append(
        DefinitionField(name: method, kind: methodDoc.isFunction ? .method : .value, doc: methodDoc)
      )
    }
    for event in component.events.sorted() {
      var eventDoc = doc(event, .function(["...: any"], ""))
      if eventDoc.isFunction { eventDoc.type = "(" + eventDoc.functionType(selfType: name) + ")?" }
      definition.fields.append(
        DefinitionField(name: event, kind: .value, doc: eventDoc, isSettable: true))
      spec.fields.append(DefinitionField(name: event, kind: .value, doc: eventDoc))
    }
    for (option, optionDoc) in docs.options.sorted(by: { $0.key < $1.key }) {
      spec.fields.append(DefinitionField(name: option, kind: .value, doc: optionDoc))
    }
    let declared = Set(definition.fields.map(\.name))
    for field in docs.fields.keys.sorted() where !declared.contains(field) {
      set.notes.append("\(name).\(field) is documented but the component has no such field")
    }
    spec.fields.sort { $0.name < $1.name }
    set.classes += [definition, spec]
  }
}

/// The error of the sample alert: one that fills every field an alert can have.
private struct SampleFailure: AlertDetailing {
  var alertMessage: String { "A sample failure." }
  var sourceLocation: String? { "init.lua:1" }
  var tracebackText: String? { "stack traceback:\n\tinit.lua:1: in main chunk" }
  var underlyingError: (any Error)? { SampleReason() }
}

/// The Swift side of the sample failure: a failure reason and a recovery suggestion.
private struct SampleReason: LocalizedError {
  var errorDescription: String? { "A sample failure." }
  var failureReason: String? { "It is a sample." }
  var recoverySuggestion: String? { "None is needed." }
}
