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
    // The file may have been swapped since `realpath` looked (a link put in its place): open
    // without following a final link, then check where the opened file really is.
    let fd = open(resolved, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    guard let opened = Self.path(of: fd), contains(opened) else { return nil }
    return try? LuaState.readOpenFile(fd, path: path, maxSize: maxSize, regularFileOnly: true)
  }

  private func contains(_ resolved: String) -> Bool {
    root == "/" || resolved == root || resolved.hasPrefix(root + "/")
  }

  /// Where an open file really is, as the kernel names it.
  private static func path(of fd: Int32) -> String? {
    #if os(Linux)
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
      guard count > 0 else { return nil }
      return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #else
      var buffer = [CChar](repeating: 0, count: Int(MAXPATHLEN))
      guard fcntl(fd, F_GETPATH, &buffer) != -1 else { return nil }
      return String(cString: buffer)
    #endif
  }

  private static func resolve(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
