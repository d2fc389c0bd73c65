#if canImport(Glibc)
  import Glibc
#endif

/// Which sanitizer the test process runs under, for the few tests whose subject the
/// sanitizer itself changes.
public enum Sanitizers {
  /// Whether ThreadSanitizer's runtime is loaded. It intercepts signals and delivers them
  /// later, at its own safe points, so a blocking `read` is not interrupted with EINTR as
  /// it is in a normal build; Ctrl-C at a REPL built this way behaves differently.
  public static var threadSanitizer: Bool {
    dlsym(nil, "__tsan_init") != nil  // nil is RTLD_DEFAULT on glibc
  }
}

extension Sanitizers {
  /// Whether AddressSanitizer's runtime is loaded: it keeps freed memory in quarantine and
  /// shadow memory beside it, so resident-memory bounds do not apply.
  public static var addressSanitizer: Bool { dlsym(nil, "__asan_init") != nil }

  /// Whether any sanitizer runtime is loaded.
  public static var any: Bool { threadSanitizer || addressSanitizer }
}
