import CSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes to C's standard streams, which Lua's `print` also uses, so output stays ordered.
public enum StandardStreams {
  /// Writes `text` to stdout.
  public static func out(_ text: String) { fputs(text, cs_stdout()) }

  /// Flushes stdout, then writes `text` to stderr.
  public static func error(_ text: String) {
    fflush(cs_stdout())
    fputs(text, cs_stderr())
  }

  /// Flushes stdout.
  public static func flush() { fflush(cs_stdout()) }
}
