#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writing generated files: the definitions (``LuaDefinitions/write(to:)``) and a new
/// plugin's files (`luahost new plugin`). Errors name the path and the system's reason.
package enum FileOutput {
  /// Writes `contents` to `path`, replacing the file, and makes the folders above it that
  /// are missing.
  /// - Throws: ``LuaDefinitions/CannotWrite``.
  package static func write(_ contents: String, to path: String) throws {
    if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
      try makeFolders(String(path[..<slash]))
    }
    guard let handle = fopen(path, "wb") else {
      throw LuaDefinitions.CannotWrite(path: path, reason: String(cString: strerror(errno)))
    }
    let bytes = Array(contents.utf8)
    let written = fwrite(bytes, 1, bytes.count, handle)
    guard fclose(handle) == 0, written == bytes.count else {
      throw LuaDefinitions.CannotWrite(path: path, reason: String(cString: strerror(errno)))
    }
  }

  /// Makes the folder `path` and those above it that are missing.
  /// - Throws: ``LuaDefinitions/CannotWrite``.
  package static func makeFolders(_ path: String) throws {
    var current = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
      current += "/" + part
      guard mkdir(current, 0o755) == 0 || errno == EEXIST else {
        throw LuaDefinitions.CannotWrite(path: current, reason: String(cString: strerror(errno)))
      }
    }
  }
}
