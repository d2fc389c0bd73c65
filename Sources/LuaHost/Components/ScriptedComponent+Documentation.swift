extension ScriptedComponent {
  /// Says in one line what the component is: the summary of `ui.<name>` and of its views'
  /// class in the editor definitions (``LuaDefinitions``, `luahost definitions`).
  public mutating func describe(_ summary: String) {
    documentation.summary = summary
  }

  /// Gives a property, method or event of this component its type and a one-line summary
  /// for editors. A property's doc is its value's type (`LuaDoc("number", …)`); a method's
  /// or an event's is a `LuaDoc.function` of its parameters after `self`. A name the
  /// component does not declare is reported in ``LuaDefinitions/notes``, not written.
  public mutating func describe(_ field: String, _ doc: LuaDoc) {
    documentation.fields[field] = doc
  }

  /// Documents a field of the constructor's table, as in `ui.slider{ min = 0 }`.
  public mutating func describe(option: String, _ doc: LuaDoc) {
    documentation.options[option] = doc
  }
}
