import LuaHostFuzzing

#if canImport(Glibc)
  import Glibc
#endif

// libFuzzer calls this once per input.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  FuzzEntry.test(data, size, TreeFuzzer.run)
}

#if FUZZING
  // SwiftPM links an executable's entry point as `<module>_main`; under libFuzzer that is
  // libFuzzer's driver. (Without the rename, libFuzzer's own `main` is used instead.)
  @_silgen_name("LLVMFuzzerRunDriver")
  func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
  ) -> CInt

  @_cdecl("FuzzTree_main")
  func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments, fuzzOne)
  }
#else
  /// Without libFuzzer: replays the inputs named on the command line.
  @main enum Replay {
    static func main() {
      exit(FuzzEntry.replay(Array(CommandLine.arguments.dropFirst()), TreeFuzzer.run))
    }
  }
#endif
