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
  /// numbers), and the chunk is named `@path`. Only a regular file of at most
  /// ``maximumFileSize`` bytes is read (see ``readFile(_:maxSize:regularFileOnly:)``).
  /// - Throws: ``LuaError`` of kind `file` when the file cannot be read, else as
  ///   ``load(bytes:name:mode:)``.
  public func load(file path: String, mode: LuaLoadMode = .text) throws -> LuaFunction {
    try load(script: Self.readFile(path, regularFileOnly: true), name: "@" + path, mode: mode)
  }

  /// Compiles script bytes as `lua` does for a file or stdin: a UTF-8 byte order mark is
  /// skipped, then a first line starting with `#` (a shebang), keeping its newline so line
  /// numbers stay right. What follows may be precompiled when `mode` allows it (`lua`
  /// checks for bytecode after those two as well).
  /// - Throws: as ``load(bytes:name:mode:)``.
  public func load(script bytes: [UInt8], name: String, mode: LuaLoadMode = .text) throws
    -> LuaFunction
  {
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    if start < bytes.count, bytes[start] == UInt8(ascii: "#") {
      start = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
      // Before bytecode the newline goes too, as `lua` drops it there.
      if start + 1 < bytes.count, bytes[start + 1] == 0x1B { start += 1 }
    }
    return try load(bytes: start == 0 ? bytes : Array(bytes[start...]), name: name, mode: mode)
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

  /// The largest file ``readFile(_:maxSize:regularFileOnly:)`` reads by default.
  public static let maximumFileSize = 256 << 20

  /// Reads a whole file of at most `maxSize` bytes.
  ///
  /// The file is opened without blocking and checked before it is read: a directory is
  /// refused, and so is anything but a regular file when `regularFileOnly` (a FIFO would
  /// block, `/dev/zero` never ends). Otherwise a FIFO or a pipe (`lua <(…)`) is read.
  /// - Throws: ``LuaError`` of kind `file` when it cannot be opened or read, is not
  ///   allowed, or is larger than `maxSize`.
  public static func readFile(
    _ path: String, maxSize: Int = maximumFileSize, regularFileOnly: Bool = false
  ) throws -> [UInt8] {
    try readFile(atPath: Array(path.utf8), maxSize: maxSize, regularFileOnly: regularFileOnly)
  }

  /// Reads a whole file as ``readFile(_:maxSize:regularFileOnly:)`` does, at a path given
  /// as bytes: one that is not UTF-8 (a name from another system) opens too. Errors name
  /// it with such bytes shown as U+FFFD.
  public static func readFile(
    atPath path: [UInt8], maxSize: Int = maximumFileSize, regularFileOnly: Bool = false
  ) throws -> [UInt8] {
    let name = String(decoding: path, as: UTF8.self)
    guard !path.contains(0) else {
      throw LuaError(kind: .file, message: "cannot open \(name): the path holds a zero byte")
    }
    let fd = (path + [0]).withUnsafeBufferPointer { bytes in
      bytes.withMemoryRebound(to: CChar.self) {
        open($0.baseAddress!, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
      }
    }
    guard fd >= 0 else { throw fileError("open", name) }
    defer { _ = Glibc.close(fd) }
    return try readOpenFile(fd, path: name, maxSize: maxSize, regularFileOnly: regularFileOnly)
  }

  /// Reads the file open at `fd` (opened without blocking) as ``readFile(_:maxSize:regularFileOnly:)``
  /// does: refuses a directory, and anything but a regular file when `regularFileOnly`;
  /// waits for a pipe's writer otherwise; stops past `maxSize`. `path` names it in errors.
  static func readOpenFile(_ fd: Int32, path: String, maxSize: Int, regularFileOnly: Bool)
    throws -> [UInt8]
  {
    func refusal(_ why: String) -> LuaError {
      LuaError(kind: .file, message: "cannot read \(path): \(why)")
    }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw fileError("open", path) }
    let type = info.st_mode & S_IFMT
    guard type != S_IFDIR else { throw refusal("Is a directory") }
    if type != S_IFREG {
      guard !regularFileOnly else { throw refusal("not a regular file") }
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)  // a pipe: wait for its writer
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { throw fileError("read", path) }
      if count == 0 { break }
      guard bytes.count + count <= maxSize else { throw refusal("larger than \(maxSize) bytes") }
      bytes.append(contentsOf: chunk[..<count])
    }
    return bytes
  }

  private static func fileError(_ what: String, _ path: String) -> LuaError {
    LuaError(kind: .file, message: "cannot \(what) \(path): \(String(cString: strerror(errno)))")
  }

}
