import Lua
import LuaHost

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `*_test.lua` files: each test in a fresh sandbox with a fresh app tree, under a
/// deadline, so a failing, erroring or hanging test fails alone.
package struct TestRunner {
  /// How to run the tests.
  package struct Options: Sendable {
    /// Only tests whose full name contains this text (or matches it as a Lua pattern).
    package var filter: String?
    /// Plugins to load into each test's app tree.
    package var pluginDirectory: String?
    /// Capabilities granted to tests and plugins, and their limits: each test's deadline
    /// (5 s unless given), the instruction budget of each call (for
    /// `expect.error(fn, "instructions")`) and the memory limit (the sandbox's default
    /// unless given; `--memory none` lifts it).
    package var limits = RunLimits()
    /// Whether what tests and plugins print goes to stderr: with `--json` or `--tap`,
    /// stdout holds the report alone, so that a tool can parse it.
    package var printsToStandardError = false

    /// The deadline of each test.
    package var timeout: Duration { limits.timeout ?? .seconds(5) }

    /// Default options.
    package init() {}
  }

  /// The options in use.
  package var options: Options

  /// Creates a runner.
  package init(options: Options) { self.options = options }

  /// The `*_test.lua` files (or those ending in `suffix`) under `paths` (files are taken
  /// as given), sorted; hidden
  /// folders and `.build` are skipped. The walk does not follow symbolic links to folders
  /// (two links to `.` would make it exponential) and visits each folder once; only
  /// regular files are taken.
  package static func discover(_ paths: [String], suffix: String = "_test.lua") -> [String] {
    var found: [String] = []
    var visited = Set<[UInt64]>()
    for path in paths {
      guard PluginHost.isDirectory(path) else {
        // A file given is a test file, unless it is a spec (those run with busted).
        if path.hasSuffix("_spec.lua") == (suffix == "_spec.lua") { found.append(path) }
        continue
      }
      var pending = [path]
      while let folder = pending.popLast() {
        var info = stat()
        guard stat(folder, &info) == 0,
          visited.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted
        else { continue }
        for entry in PluginHost.entries(of: folder) where entry != ".build" {
          let child = folder == "." ? entry : folder + "/" + entry
          var link = stat()
          guard lstat(child, &link) == 0 else { continue }
          if (link.st_mode & S_IFMT) == S_IFDIR {
            pending.append(child)
          } else if entry.hasSuffix(suffix), PluginHost.isFile(child) {
            found.append(child)
          }
        }
      }
    }
    return found.sorted()
  }

  /// Runs every test of one file and returns their results (one failure if the file
  /// itself is broken).
  package func run(file: String) -> [TestResult] {
    let names: [(name: String, line: Int?, skip: Bool)]
    do {
      let environment = try TestEnvironment(options: options)
      names = try environment.tree.withState { _ in
        try environment.load(file: file).array().map { entry in
          let table = try LuaTable(luaValue: entry)
          let function = try LuaFunction(luaValue: table.rawGet("fn"))
          // A name that is not UTF-8 is shown with escapes (`\233`): it failed the file.
          let name = try table.rawGet("name")
          let text: String
          if case .string(let bytes) = name {
            text = bytes.string ?? bytes.visibleText()
          } else {
            text = try String(luaValue: name)
          }
          return (text, function.definition?.line, try table.rawGet("skip") == true)
        }
      }
    } catch let error as LuaError {
      return [brokenFile(file, error)]
    } catch {
      return [
        TestResult(name: "(file could not run)", file: file, status: .failed, message: "\(error)")
      ]
    }
    let matches = nameMatcher()
    return names.enumerated().compactMap { index, test in
      guard matches(test.name) else { return nil }
      if test.skip {
        return TestResult(name: test.name, file: file, line: test.line, status: .skipped)
      }
      return run(index: index, of: file, name: test.name, line: test.line)
    }
  }

  /// A test-name matcher for `--filter`: a substring, or else a Lua pattern. One small
  /// state serves every name of a file. The names come from the test file, so the pattern
  /// runs sandboxed, under a deadline and a memory limit (a name that takes longer to
  /// match than that does not match).
  private func nameMatcher() -> (String) -> Bool {
    guard let filter = options.filter else { return { _ in true } }
    var limits = RunLimits()
    limits.memory = .bytes(16 << 20)
    limits.timeout = .seconds(1)
    // The closure keeps the state: a LuaFunction alone does not keep its state open.
    let lua = try? LuaState(sandbox: limits.sandbox(granting: false))
    let find = try? lua?.load("local s, p = ... return s:find(p) ~= nil")
    return { name in
      withExtendedLifetime(lua) {}
      return name.contains(filter)
        || (try? find?.call(.string(LuaString(name)), .string(LuaString(filter)))) == [true]
    }
  }

  /// Runs test number `index` of `file` in a fresh environment.
  private func run(index: Int, of file: String, name: String, line: Int?) -> TestResult {
    var result = TestResult(name: name, file: file, line: line, status: .passed)
    // The environment must outlive the catch below: the error's value lives in its state.
    var environment: TestEnvironment?
    defer { withExtendedLifetime(environment) {} }
    do {
      let environment = try { () throws -> TestEnvironment in
        environment = try TestEnvironment(options: options)
        return environment!
      }()
      let test = try environment.tree.withState { _ in
        let registry = try environment.load(file: file)
        let entry = try LuaTable(luaValue: registry.rawGet(.integer(Int64(index) + 1)))
        return try LuaFunction(luaValue: entry.rawGet("fn"))
      }
      // As a coroutine: a test may wait (timer.sleep, expect.alert on async work).
      let (coroutine, progress) = try environment.tree.start(test, arguments: [])
      if case .suspended = progress {
        let waiting = Unchecked(coroutine)
        _ = try Blocking.wait { try await waiting.value.finish(isolation: nil) }
      }
    } catch let error as LuaError {
      result.status = .failed
      let shortName = Self.shortSource(file)
      let frame = error.traceback.frames.first { $0.source == shortName && $0.line > 0 }
      if case .table(let value) = error.value,
        (try? environment?.tree.withState({ _ in try value.rawGet("__expect") })) == true
      {
        result.message = error.message
        result.line = frame?.line ?? line
      } else if error.kind == .timeout {
        result.message = "timed out: the test ran past its \(options.timeout) deadline"
        result.line = frame?.line ?? line
      } else {
        result.message = "error outside any expectation: \(error.message)"
        result.line = frame?.line ?? error.location?.line ?? line
        result.detail = error.traceback.isEmpty ? nil : error.traceback.description
      }
    } catch {
      result.status = .failed
      result.message = "\(error)"
    }
    return result
  }

  private func brokenFile(_ file: String, _ error: LuaError) -> TestResult {
    let what: String
    switch error.kind {
    case .syntax: what = "syntax error"
    case .file: what = "cannot read the file"
    default: what = "error while loading"
    }
    return TestResult(
      name: "(\(what))", file: file, line: error.location?.line, status: .failed,
      message: error.message,
      detail: error.traceback.isEmpty ? nil : error.traceback.description)
  }

  /// The chunk name Lua shows for a file loaded as `@file` (shortened past 60 bytes).
  static func shortSource(_ file: String) -> String {
    let limit = 59
    guard file.utf8.count > limit else { return file }
    return "..." + String(decoding: file.utf8.suffix(limit - 3), as: UTF8.self)
  }
}
