#if canImport(Glibc)
  import Glibc
#endif

/// Creates, runs and closes sandboxes that raise errors of every kind, for leak checks.
public enum LeakLoop {
  /// One chunk per kind of failure a sandbox can see, and one that succeeds.
  public static let chunks = [
    "error('boom')",
    "error({code = 1})",
    "error(nil)",
    "error(setmetatable({}, {__tostring = function() return 'custom' end}))",
    "error(setmetatable({}, {__tostring = function() error('tostring failed') end}))",
    "host_fail(1)",
    "local ok, e = pcall(host_fail, 2) error(e)",
    "x x",
    "local t = {} while true do t[#t + 1] = ('x'):rep(4096) .. #t end",
    "while true do end",
    "coroutine.wrap(function() error('in coroutine') end)()",
    "local x <close> = setmetatable({}, {__close = function() error('in __close') end})",
    "return host_call(function() error('nested') end)",
    "xpcall(error, function() error('in handler') end, 'x')",
    "local function r() return 1 + r() end r()",
    "return 1, 'two', {3}",
  ]

  /// A tree program (see ``TreeFuzzer``): buttons whose actions raise into nested
  /// boundaries whose handlers decline, transform and fail, and a Swift action.
  public static let treeProgram: [UInt8] = [
    0, 0, 5, 9, 1, 3, 7, 1, 1, 4, 1, 9, 2, 4, 1, 0, 1, 3, 7, 2, 14, 4, 4, 1, 4, 7, 5, 9,
    4, 4, 5, 7, 7, 12, 4, 5, 10, 2, 1, 4, 2, 11, 1, 14, 15, 1, 15, 2,
  ]

  /// Runs `iterations` sandboxes, cycling through ``chunks``; every `treeEvery`-th one also
  /// builds a scripted tree; the slow timeout chunk runs every `timeoutEvery`-th one.
  /// Returns the broken promises seen (empty when all held).
  public static func run(iterations: Int, treeEvery: Int = 100, timeoutEvery: Int = 1000)
    -> [String]
  {
    var violations: [String] = []
    // Smaller limits than the fuzzer's, so that ten thousand runs stay quick.
    var sandbox = ChunkFuzzer.sandbox
    sandbox.memoryLimit = 512 << 10
    sandbox.instructionLimit = 20_000
    for index in 0..<iterations {
      violations += ChunkFuzzer.run(Array(chunks[index % chunks.count].utf8), sandbox: sandbox)
      if index % treeEvery == 0 { violations += TreeFuzzer.run(treeProgram) }
      if index % timeoutEvery == timeoutEvery - 1 {
        violations += ChunkFuzzer.run(Array("host_sleep() while true do end".utf8))
      }
      if violations.count > 10 { break }
    }
    return violations
  }

  /// The resident memory of this process in bytes, from `/proc/self/statm`, after giving
  /// freed memory back to the system.
  public static func residentBytes() -> Int {
    _ = mallocTrim(0)
    guard let file = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(file) }
    var size = 0
    var resident = 0
    withUnsafeMutablePointer(to: &size) { size in
      withUnsafeMutablePointer(to: &resident) { resident in
        _ = withVaList([size, resident]) { vfscanf(file, "%ld %ld", $0) }
      }
    }
    return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
}

/// glibc's `malloc_trim` (in `<malloc.h>`, which the Glibc module does not export): gives
/// free heap memory back to the system so that RSS shows what is still in use.
@_silgen_name("malloc_trim")
private func mallocTrim(_ pad: Int) -> CInt
