extension HostModule {
  /// Says in one line what the module is, for editors (``LuaDefinitions``,
  /// `luahost definitions`).
  public mutating func describe(_ summary: String) {
    documentation.summary = summary
  }

  /// Gives a field of the module its type and a one-line summary for editors: a function's
  /// doc is a `LuaDoc.function`. A field of a nested table is named by its dotted path
  /// (`"store.count"`). A name the module does not have is reported in
  /// ``LuaDefinitions/notes``, not written.
  public mutating func describe(_ field: String, _ doc: LuaDoc) {
    documentation.fields[field] = doc
  }
}
