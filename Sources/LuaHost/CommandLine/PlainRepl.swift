import Lua

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A line-by-line read-eval-print loop without line editing, as `lua -i` behaves when
/// its input is not a terminal: an expression prints its values, a statement prints
/// nothing, and an incomplete chunk continues on the next line under `>>`.
public struct PlainRepl {
  let lua: LuaState

  /// Creates a REPL on a state.
  public init(lua: LuaState) { self.lua = lua }

  /// Reads stdin until end of file.
  public func run() {
    var pending = ""
    while true {
      StandardStreams.out(pending.isEmpty ? "> " : ">> ")
      StandardStreams.flush()
      guard let line = readLine(strippingNewline: true) else { break }
      pending += pending.isEmpty ? line : "\n" + line
      switch evaluate(pending) {
      case .incomplete: continue
      case .output(let text):
        if !text.isEmpty { StandardStreams.out(text + "\n") }
      case .error(let text):
        StandardStreams.error(text + "\n")
      }
      pending = ""
    }
    StandardStreams.out("\n")
  }

  /// What evaluating one chunk gave.
  public enum Outcome: Equatable {
    /// The chunk is not finished yet.
    case incomplete
    /// The values it returned, tab-separated (empty for a statement).
    case output(String)
    /// The error message and traceback.
    case error(String)
  }

  /// Evaluates a chunk: first as `return <chunk>`, then as a statement.
  public func evaluate(_ chunk: String) -> Outcome {
    let function: LuaFunction
    do {
      function = try lua.load("return " + chunk, name: "=stdin")
    } catch {
      do {
        function = try lua.load(chunk, name: "=stdin")
      } catch let error as LuaError {
        if error.kind == .syntax(incomplete: true) { return .incomplete }
        return .error(error.message)
      } catch {
        return .error("\(error)")
      }
    }
    do {
      let results = try function.call()
      let texts = try results.map { value -> String in
        let tostring = try LuaFunction(luaValue: lua.globals().get("tostring"))
        return try String(luaValue: tostring.call(value).first ?? .nil)
      }
      return .output(texts.joined(separator: "\t"))
    } catch let error as LuaError {
      return .error(ScriptRunner.describe(error))
    } catch {
      return .error("\(error)")
    }
  }
}
