#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The folder a sandboxed `require` may read modules from.
///
/// Paths from a script are hostile: each one is resolved (symbolic links included) and must
/// stay inside the folder's own resolved path; only a regular file is read, opened so that
/// a FIFO cannot block the open, and only up to a size cap.
struct ModuleFolder: Sendable {
  /// The folder's resolved path, without a trailing slash (except for `/` itself).
  let root: String

  /// Resolves `path`; nil if it does not name a folder.
  init?(path: String) {
    guard let resolved = Self.resolve(path) else { return nil }
    var info = stat()
    guard stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
    root = resolved
  }

  /// `package.path` for this folder: `name.lua`, then `name/init.lua`, as stock Lua's
  /// `./?.lua;./?/init.lua`.
  var searchPath: String {
    let prefix = root == "/" ? "/" : root + "/"
    return "\(prefix)?.lua;\(prefix)?/init.lua"
  }

  /// The bytes of the regular file at `path`, if it resolves to a place inside the folder
  /// and holds at most `maxSize` bytes; nil otherwise.
  func read(_ path: String, maxSize: Int) -> [UInt8]? {
    guard !path.utf8.contains(0), let resolved = Self.resolve(path), contains(resolved) else {
      return nil
    }
    let fd = open(resolved, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= maxSize
    else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
    var count = 0
    while count < bytes.count {
      let n = bytes.withUnsafeMutableBytes { buffer in
        Glibc.read(fd, buffer.baseAddress! + count, buffer.count - count)
      }
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else { return nil }
      if n == 0 { break }
      count += n
    }
    guard count <= maxSize else { return nil }  // it grew while being read
    return Array(bytes[..<count])
  }

  private func contains(_ resolved: String) -> Bool {
    root == "/" || resolved == root || resolved.hasPrefix(root + "/")
  }

  private static func resolve(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
