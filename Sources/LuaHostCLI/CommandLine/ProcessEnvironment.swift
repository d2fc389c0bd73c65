#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the process environment without Foundation.
package enum ProcessEnvironment {
  /// The current environment as a dictionary.
  package static var current: [String: String] {
    var result: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
      let text = ArgumentText.word(pointer)  // values keep their bytes (LUA_INIT's code)
      if let (name, value) = ArgumentText.split(atFirstEquals: text) { result[name] = value }
      entry += 1
    }
    return result
  }
}
