// swift-tools-version: 6.2
import PackageDescription

// A package outside LuaHost that uses it through its public API alone, by path, as an
// app would: one test per numbered item of issue 24 ("Embedding without reading the
// source"). `check` copies it out of the repository and runs its tests there.
let package = Package(
  name: "EmbedderCheck",
  dependencies: [.package(name: "LuaHost", path: "../..")],
  targets: [
    .testTarget(
      name: "EmbedderCheckTests",
      dependencies: [
        .product(name: "Lua", package: "LuaHost"),
        .product(name: "ViewTree", package: "LuaHost"),
        .product(name: "LuaHost", package: "LuaHost"),
      ])
  ],
  swiftLanguageModes: [.v6]
)
