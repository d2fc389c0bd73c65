import CLuaShim

extension LuaState {
  /// Whether `value` is the error value of a host stop (timeout, interrupt, budget): Lua
  /// code that catches errors should rethrow these.
  public static func isStopValue(_ value: LuaValue) -> Bool {
    guard case .lightUserdata(let pointer?) = value else { return false }
    return [LH_STOP_TIMEOUT, LH_STOP_INTERRUPT, LH_STOP_BUDGET].contains {
      lh_stop_marker(Int32($0)) == UnsafeRawPointer(pointer)
    }
  }

  /// Creates a state that runs untrusted code under `sandbox`.
  /// - Throws: ``LuaError`` when the state cannot be created.
  public convenience init(sandbox: LuaSandbox) throws {
    var libraries: LuaLibraries = [.safe, .os]
    if sandbox.capabilities.contains(.io) { libraries.insert(.io) }
    if sandbox.capabilities.contains(.package) { libraries.insert(.package) }
    if sandbox.capabilities.contains(.debug) { libraries.insert(.debug) }
    try self.init(libraries: libraries)
    try core.withCollectorPaused { try applySandbox(sandbox) }
    memoryLimit = sandbox.memoryLimit
    timeout = sandbox.timeout
    endOfRun = sandbox.endOfRun
    instructionLimit = sandbox.instructionLimit
  }

  private func applySandbox(_ sandbox: LuaSandbox) throws {
    if let warnings = sandbox.warningOutput {
      // The core keeps the sink until the state is closed (closing may still warn).
      let sink = WarningSink(warnings)
      core.warningSink = sink
      lh_setwarnsink(try LuaStack(core).L, Unmanaged.passUnretained(sink).toOpaque())
    }
    // The policy itself is C (lh_sandbox.c): it takes the two hooks below and the path. The
    // default ones (print to stdout; no module folder, so nothing to read) are C functions:
    // two Swift callbacks, boxed, cost about 11,000 instructions of a sandbox's making.
    let folder = sandbox.moduleDirectory.flatMap(ModuleFolder.init(path:))
    var flags: UInt32 = 0
    if sandbox.capabilities.contains(.os) { flags |= UInt32(LH_SANDBOX_OS) }
    if sandbox.capabilities.contains(.package) { flags |= UInt32(LH_SANDBOX_PACKAGE) }
    if sandbox.capabilities.contains(.debug) { flags |= UInt32(LH_SANDBOX_DEBUG) }
    let stack = try LuaStack(core)
    try stack.reserve(3)
    if let output = sandbox.output {
      try stack.push(
        LuaCallback(
          core: core,
          values: { arguments in
            output(try LuaString(luaValue: arguments.first ?? ""))
            return []
          }))
    } else {
      lh_pushstdoutwriter(stack.L)
    }
    if let folder {
      let maxModuleSize = sandbox.maxModuleSize
      try stack.push(
        LuaCallback(
          core: core,
          values: { arguments in
            let path = try String(luaValue: arguments.first ?? .nil)
            guard let bytes = folder.read(path, maxSize: maxModuleSize) else { return [.nil] }
            return [.string(LuaString(bytes: bytes))]
          }))
    } else {
      lh_pushnomodulereader(stack.L)
    }
    try stack.push(.string(LuaString(folder?.searchPath ?? "")))
    try stack.check(lh_applysandbox(stack.L, flags))
  }
}

/// A sandbox's `output`, for its warnings (`warn`, errors in finalizers).
final class WarningSink {
  let output: (LuaString) -> Void
  init(_ output: @escaping (LuaString) -> Void) { self.output = output }
}

/// Called by `lh_warnf` with one whole warning line ("Lua warning: …"), inside Lua's call to
/// `warn` or a finalizer's failure: it only hands the bytes on.
@_cdecl("lh_swift_warnline")
func luaSwiftWarnLine(
  _ sink: UnsafeMutableRawPointer?, _ line: UnsafePointer<CChar>?, _ length: Int
) {
  guard let sink, let line else { return }
  let bytes = UnsafeRawBufferPointer(start: line, count: length)
  Unmanaged<WarningSink>.fromOpaque(sink).takeUnretainedValue().output(LuaString(bytes: bytes))
}
