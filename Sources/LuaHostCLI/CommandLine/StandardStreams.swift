import CSystem
import LuaHost

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes to C's standard streams, which Lua's `print` also uses, so output stays ordered.
package enum StandardStreams {
  /// Writes `text` to stdout.
  package static func out(_ text: String) { fputs(text, cs_stdout()) }

  /// Flushes stdout, then writes `text` to stderr.
  package static func error(_ text: String) {
    fflush(cs_stdout())
    fputs(text, cs_stderr())
  }

  /// Flushes stdout.
  package static func flush() { fflush(cs_stdout()) }
}
