import CLuaShim

/// Writes lines to the process's stdout through C's buffered stream, as `print` does.
enum StandardOutput {
  static func writeLine(_ bytes: LuaString) {
    bytes.bytes.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { lh_writeline($0.baseAddress, $0.count) }
    }
  }
}
