// swift-tools-version:6.1
import PackageDescription

let package = Package(
  name: "nudge",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "nudge", targets: ["nudge"]),
    // for the in-process benchmarks (Benchmarks/Package.swift)
    .library(name: "NudgeCore", targets: ["NudgeCore"]),
    .library(name: "NudgeStore", targets: ["NudgeStore"]),
  ],
  dependencies: [
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
  ],
  targets: [
    // Pure rules: days, flows, history, config, export format. No I/O.
    .target(name: "NudgeCore"),
    // SQLite through GRDB: migrations, records, named writes.
    .target(
      name: "NudgeStore",
      dependencies: ["NudgeCore", .product(name: "GRDB", package: "GRDB.swift")]
    ),
    .systemLibrary(
      name: "CLibnotify", pkgConfig: "libnotify", providers: [.apt(["libnotify-dev"])]),
    .systemLibrary(
      name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
    // The only target that imports C modules: desktop notifications, journald.
    .target(
      name: "NudgeDesktop",
      dependencies: [
        "NudgeCore", "CLibnotify", "CSystemd", .product(name: "Logging", package: "swift-log"),
      ]),
    // Commands, prompts and terminal rendering, run against an injected context.
    .target(
      name: "NudgeCLI",
      dependencies: [
        "NudgeCore", "NudgeStore", "NudgeDesktop",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]
    ),
    .executableTarget(name: "nudge", dependencies: ["NudgeCLI"]),
    .testTarget(name: "NudgeCoreTests", dependencies: ["NudgeCore"]),
    .testTarget(
      name: "NudgeStoreTests",
      dependencies: ["NudgeStore", .product(name: "GRDB", package: "GRDB.swift")]),
    .testTarget(name: "NudgeDesktopTests", dependencies: ["NudgeDesktop", "NudgeCore"]),
    .testTarget(name: "NudgeCLITests", dependencies: ["NudgeCLI", "NudgeCore", "nudge"]),
  ]
)
