#if canImport(Glibc)
  import Glibc
#endif

/// The glue between libFuzzer and a fuzz target, shared by the `FuzzChunk` and `FuzzTree`
/// executables.
///
/// Built by `scripts/fuzz` (with `-sanitize=fuzzer,address -DFUZZING`), the executable's
/// entry point hands control to libFuzzer's driver. Built plainly (by `swift build`), it
/// replays the files named on its command line instead, so a crash file reproduces without
/// libFuzzer: `.build/debug/FuzzTree crash-1234`.
public enum FuzzEntry {
  /// Runs `target` on one input; a broken promise traps, so libFuzzer saves the input.
  public static func test(
    _ data: UnsafePointer<UInt8>?, _ size: Int, _ target: ([UInt8]) -> [String]
  ) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let violations = target(bytes)
    if !violations.isEmpty {
      fatalError("broken promise: " + violations.joined(separator: "; "))
    }
    return 0
  }

  /// Replays each file in `paths` through `target`; returns the process exit status.
  public static func replay(_ paths: [String], _ target: ([UInt8]) -> [String]) -> Int32 {
    var status: Int32 = 0
    for path in paths {
      guard let file = fopen(path, "rb") else {
        print("\(path): cannot open")
        status = 2
        continue
      }
      var bytes: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count == 0 { break }
        bytes += buffer[0..<count]
      }
      fclose(file)
      let violations = target(bytes)
      print("\(path): " + (violations.isEmpty ? "ok" : violations.joined(separator: "; ")))
      if !violations.isEmpty { status = 1 }
    }
    return status
  }
}
