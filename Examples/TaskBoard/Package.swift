// swift-tools-version: 6.2
import PackageDescription

// An app that embeds LuaHost, depending on it by path exactly as your own app would
// (`.package(url: …)` instead, once you publish).
let package = Package(
  name: "TaskBoard",
  dependencies: [.package(name: "LuaHost", path: "../..")],
  targets: [
    .executableTarget(
      name: "taskboard",
      dependencies: [
        .product(name: "Lua", package: "LuaHost"),
        .product(name: "ViewTree", package: "LuaHost"),
        .product(name: "LuaHost", package: "LuaHost"),
      ],
      path: "Sources/TaskBoard")
  ],
  swiftLanguageModes: [.v6]
)
