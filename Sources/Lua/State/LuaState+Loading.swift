import CLua
import CLuaShim

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension LuaState {
  /// Compiles a chunk of source text without running it.
  /// - Parameters:
  ///   - code: Lua source.
  ///   - name: the chunk name, as Lua uses it in messages: `=name` is shown as is, `@file`
  ///     as a file name; by default the code itself (`[string "…"]`), as `load` does.
  /// - Throws: ``LuaError`` of kind `syntax` (with `incomplete` set when the text just
  ///   ended too early) or `memory`.
  public func load(_ code: String, name: String? = nil) throws -> LuaFunction {
    try load(bytes: Array(code.utf8), name: name ?? code, mode: .text)
  }

  /// Compiles a chunk from bytes. Only text is accepted unless `mode` says otherwise.
  /// - Throws: ``LuaError`` of kind `syntax` (also for a binary chunk in text mode) or
  ///   `memory`.
  public func load(bytes: some Collection<UInt8>, name: String, mode: LuaLoadMode = .text) throws
    -> LuaFunction
  {
    let stack = try LuaStack(core)
    try stack.reserve(2)
    var buffer = Array(bytes)
    let count = buffer.count
    buffer.append(0)  // never empty, so the buffer always has a base address
    // Under the deadline: the parser's work can be quadratic in the chunk's size.
    try stack.protected {
      buffer.withUnsafeBufferPointer { raw in
        raw.withMemoryRebound(to: CChar.self) { chars in
          lh_load(stack.L, chars.baseAddress!, count, name, mode.rawValue)
        }
      }
    }
    defer { stack.pop() }
    return LuaFunction(stack.reference(at: -1))
  }

  /// Compiles a file as `lua` does: a first line starting with `#` is skipped (keeping line
  /// numbers), and the chunk is named `@path`.
  /// - Throws: ``LuaError`` of kind `file` when the file cannot be read, else as
  ///   ``load(bytes:name:mode:)``.
  public func load(file path: String, mode: LuaLoadMode = .text) throws -> LuaFunction {
    try load(script: Self.readFile(path), name: "@" + path, mode: mode)
  }

  /// Compiles script bytes as `lua` does for a file or stdin: a first line starting with
  /// `#` (a shebang) is skipped, keeping its newline so line numbers stay right.
  /// - Throws: as ``load(bytes:name:mode:)``.
  public func load(script bytes: [UInt8], name: String, mode: LuaLoadMode = .text) throws
    -> LuaFunction
  {
    var bytes = bytes
    if bytes.first == UInt8(ascii: "#") {
      bytes.removeSubrange(..<(bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex))
    }
    return try load(bytes: bytes, name: name, mode: mode)
  }

  /// Compiles and runs source text, returning all its results.
  /// - Throws: ``LuaError`` from compiling or running.
  @discardableResult
  public func run(_ code: String, name: String? = nil) throws -> [LuaValue] {
    try load(code, name: name).call()
  }

  /// Compiles and runs a file, with `arguments` passed as `...`.
  /// - Throws: ``LuaError`` from reading, compiling or running.
  @discardableResult
  public func run(file path: String, arguments: [LuaValue] = []) throws -> [LuaValue] {
    try load(file: path).call(arguments: arguments)
  }

  /// Reads a whole file.
  /// - Throws: ``LuaError`` of kind `file` when it cannot be opened or read.
  public static func readFile(_ path: String) throws -> [UInt8] {
    func failure(_ what: String) -> LuaError {
      LuaError(kind: .file, message: "cannot \(what) \(path): \(String(cString: strerror(errno)))")
    }
    var info = stat()
    guard stat(path, &info) == 0 else { throw failure("open") }
    guard (info.st_mode & S_IFMT) != S_IFDIR else {
      throw LuaError(kind: .file, message: "cannot read \(path): Is a directory")
    }
    guard let file = fopen(path, "rb") else { throw failure("open") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = fread(&chunk, 1, chunk.count, file)
      bytes.append(contentsOf: chunk[..<count])
      if count < chunk.count {
        if ferror(file) != 0 { throw failure("read") }
        break
      }
    }
    return bytes
  }
}
