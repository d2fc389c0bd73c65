import Lua

/// Tab completion for the REPL: globals, table fields (`ui.ro<TAB>`) and methods
/// (`view:<TAB>`). Resolves the prefix with raw reads only, so completing never runs
/// script code. Each completion holds the state's lock (`LuaState.withLock(_:)`), so it
/// may run while the state's timers run on other threads.
public struct Completer {
  let lua: LuaState

  /// Creates a completer over a state.
  public init(lua: LuaState) { self.lua = lua }

  /// Completions for the end of `line`: each is the whole word to put in place of the
  /// last dotted or colon-separated name (e.g. `ui.root` for `ui.ro`).
  public func completions(for line: String) -> [String] {
    (try? lua.withLock { _ in completionsHoldingLock(for: line) }) ?? []
  }

  private func completionsHoldingLock(for line: String) -> [String] {
    let word = Self.trailingWord(of: line)
    var parts = word.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    var methodPrefix: String?
    if let last = parts.last, let colon = last.firstIndex(of: ":") {
      methodPrefix = String(last[last.index(after: colon)...])
      parts[parts.count - 1] = String(last[..<colon])
      parts.append("")
    }
    let partial = parts.removeLast()
    guard var current = try? LuaValue.table(lua.globals()) else { return [] }
    for name in parts {
      guard let next = lua.rawField(of: current, name), !next.isNil else { return [] }
      current = next
    }
    let base = parts.joined(separator: ".")
    // Only names the line could hold as written (`t.name`): a key with control characters
    // is no identifier, and offering it wrote its escape sequences to the terminal.
    let names = lua.fieldNames(of: current).filter(\.isLuaName)
    if let methodPrefix {
      // A Swift object's properties are no methods (`ui.root:kind()` fails): only names
      // without a property getter follow a colon.
      var methods = names.filter { $0.hasPrefix(methodPrefix) }
      if case .userdata = current {
        methods = methods.filter { lua.rawField(of: current, $0) == nil }
      }
      return methods.map { base + ":" + $0 }
    }
    let prefix = base.isEmpty ? "" : base + "."
    return names.filter { $0.hasPrefix(partial) }.map { prefix + $0 }
  }

  /// The identifier chain at the end of `line` (letters, digits, `_`, `.`, `:`).
  static func trailingWord(of line: String) -> String {
    String(
      line.reversed().prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == ":" }
        .reversed())
  }
}
