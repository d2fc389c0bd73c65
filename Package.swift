// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "LuaHost",
  products: [
    .library(name: "Lua", targets: ["Lua"]),
    .library(name: "ViewTree", targets: ["ViewTree"]),
    .library(name: "LuaHost", targets: ["LuaHost"]),
    .executable(name: "luahost", targets: ["luahost"]),
  ],
  targets: [
    // Debian's liblua5.4 (Lua 5.4.4), found through pkg-config.
    .systemLibrary(
      name: "CLua",
      pkgConfig: "lua5.4",
      providers: [.apt(["liblua5.4-dev"])]
    ),
    // The few things that must happen in C: trampolines, protected calls, the allocator.
    .target(name: "CLuaShim", dependencies: ["CLua"]),
    // The locks that confine Lua states and the view tree: one home for the lock order.
    .target(name: "Locks"),
    .target(name: "Lua", dependencies: ["CLua", "CLuaShim", "Locks"]),
    .target(name: "ViewTree", dependencies: ["Locks"]),
    // Debian's libedit, for line editing in the REPL.
    .systemLibrary(name: "CEdit", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
    .target(name: "CSystem", dependencies: ["CEdit"]),
    // The hosting layer an app embeds: the `ui` bridge, plugins, alert text, the console.
    .target(name: "LuaHost", dependencies: ["Lua", "ViewTree"]),
    // What only the `luahost` executable needs: the command line, the terminal REPL, the
    // test runner and the demo app. `package` access: no product exposes it.
    .target(name: "LuaHostCLI", dependencies: ["LuaHost", "CSystem"]),
    .executableTarget(name: "luahost", dependencies: ["LuaHostCLI"]),
    // Benchmarks (issue 7): `scripts/bench`. The C target is the raw-C-API baseline.
    .target(name: "CBenchBaseline", dependencies: ["CLua"]),
    .executableTarget(
      name: "luahost-bench", dependencies: ["Lua", "LuaHost", "ViewTree", "CBenchBaseline"]),
    .testTarget(name: "LuaTests", dependencies: ["Lua", "TestSupport"]),
    .testTarget(name: "ViewTreeTests", dependencies: ["ViewTree"]),
    .target(name: "TestSupport", dependencies: ["CSystem"], path: "Tests/TestSupport"),
    .testTarget(
      name: "LuaHostTests", dependencies: ["LuaHost", "LuaHostCLI", "TestSupport", "luahost"]),
    // Robustness (issue 8): libFuzzer targets (`scripts/fuzz`), their shared harness, a leak
    // check that runs in its own process, and the stress and fuzz-regression tests.
    .target(
      name: "LuaHostFuzzing", dependencies: ["Lua", "ViewTree", "LuaHost"],
      path: "Fuzz/Sources/LuaHostFuzzing"),
    .executableTarget(
      name: "FuzzChunk", dependencies: ["LuaHostFuzzing"], path: "Fuzz/Sources/FuzzChunk"),
    .executableTarget(
      name: "FuzzTree", dependencies: ["LuaHostFuzzing"], path: "Fuzz/Sources/FuzzTree"),
    .executableTarget(
      name: "LeakCheck", dependencies: ["LuaHostFuzzing"], path: "Fuzz/Sources/LeakCheck"),
    .testTarget(
      name: "RobustnessTests", dependencies: ["LuaHostFuzzing", "LuaHost", "ViewTree", "LeakCheck"]),
  ],
  swiftLanguageModes: [.v6]
)
