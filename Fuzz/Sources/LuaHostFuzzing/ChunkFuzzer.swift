import Lua

#if canImport(Glibc)
  import Glibc
#endif

/// Fuzz target `chunk`: runs arbitrary bytes as a Lua chunk in a sandbox with tight limits.
///
/// The chunk can reach a few host functions, so that the fuzzer also crosses the Swift/Lua
/// border: `host_fail(n)` throws a Swift ``HostError``; `host_call(f, ...)` calls `f` back
/// from Swift; `host_echo(...)` returns its arguments; `host_sleep()` sleeps past the
/// deadline. The host's promises are checked after the run (see ``run(_:)``).
public enum ChunkFuzzer {
  /// The limits every fuzzed chunk runs under.
  public static var sandbox: LuaSandbox {
    var sandbox = LuaSandbox()
    sandbox.memoryLimit = 4 << 20
    sandbox.timeout = .milliseconds(20)
    sandbox.instructionLimit = 200_000
    sandbox.output = { _ in }
    return sandbox
  }

  /// Runs `bytes` as a chunk and returns the broken promises (empty when all held): every
  /// failure is a `LuaError` of a kind a script can cause, a Swift error comes back as
  /// itself, the stack is balanced, and the state still works afterwards.
  public static func run(_ bytes: [UInt8], sandbox: LuaSandbox = sandbox) -> [String] {
    var violations: [String] = []
    let lua: LuaState
    do {
      // Set-up runs without the deadline (see TreeFuzzer.init); the chunk runs under it.
      var setUp = sandbox
      setUp.timeout = nil
      lua = try LuaState(sandbox: setUp)
      try registerHostFunctions(lua)
      lua.timeout = sandbox.timeout
    } catch {
      return ["cannot create the sandbox: \(error)"]
    }
    defer { lua.close() }
    do {
      let results = try lua.load(bytes: bytes, name: "=fuzz").call()
      for value in results { _ = try? lua.string(describing: value) }
    } catch let error as LuaError {
      violations += check(error)
    } catch {
      violations.append("a non-LuaError escaped: \(error)")
    }
    if lua.stackTop != 0 { violations.append("stack not balanced: \(lua.stackTop)") }
    // The check is not under the fuzz deadline: a thread descheduled for longer than it
    // would fail a state that works.
    lua.timeout = nil
    do {
      let values = try lua.run("return 1 + 1", name: "=after")
      if values != [2] { violations.append("state broken afterwards: \(values)") }
    } catch let error as LuaError where error.kind == .memory {
      // The chunk may have kept the state full; that is allowed.
    } catch {
      violations.append("state unusable afterwards: \(error)")
    }
    return violations
  }

  /// The promises one error must keep.
  static func check(_ error: LuaError) -> [String] {
    var violations: [String] = []
    // Read everything a host would show, formatting included.
    _ = error.description
    _ = error.location?.description
    _ = error.traceback.description
    switch error.kind {
    // `.conversion` is allowed: a host function's argument check throws it, and a
    // LuaError thrown by a Swift closure comes back as itself.
    case .usage, .file:
      violations.append("unexpected error kind \(error.kind): \(error.message)")
    case .swift:
      if !(error.underlying is HostError || error.underlying is LuaError) {
        violations.append("a Swift error came back as \(String(describing: error.underlying))")
      }
    default: break
    }
    return violations
  }

  static func registerHostFunctions(_ lua: LuaState) throws {
    try lua.register("host_fail") { arguments in
      let code = (try? Int(luaValue: arguments.first ?? .nil)) ?? 0
      throw HostError(code: code)
    }
    try lua.register("host_call") { arguments in
      let function = try LuaFunction(luaValue: arguments.first ?? .nil)
      return try function.call(arguments: Array(arguments.dropFirst()))
    }
    try lua.register("host_echo") { arguments in arguments }
    try lua.register("host_sleep") { _ in
      usleep(25_000)
      return []
    }
  }
}

/// The Swift error host functions throw into Lua.
public struct HostError: Error, Equatable, CustomStringConvertible {
  /// Any number, so that different errors can be told apart.
  public var code: Int

  /// Creates an error with `code`.
  public init(code: Int) { self.code = code }

  /// `HostError(code)`.
  public var description: String { "HostError(\(code))" }
}
