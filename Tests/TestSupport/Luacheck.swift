import Foundation

/// Runs the real linter, Debian's `luacheck` (package lua-check, which `scripts/setup`
/// installs), found on `PATH`. A missing one exits 127: the tests that use it require it.
public enum Luacheck {
  /// Runs `luacheck --no-color` with `arguments` in `directory`, so that it reads that
  /// folder's `.luacheckrc`.
  public static func run(_ arguments: [String], directory: String) throws -> ProcessResult {
    try Luahost.run(
      ["luacheck", "--no-color"] + arguments, directory: directory,
      program: URL(fileURLWithPath: "/usr/bin/env"))
  }
}
