// swift-tools-version:6.1
import Foundation  // the manifest only: to ask pkg-config
import PackageDescription

/// Where GLib's, GIO's and libnotify's headers are, as `pkg-config --cflags-only-I libnotify`
/// says (the headers only: the libraries are loaded with dlopen, never linked), leaving out
/// the C library's own multiarch directory; Debian's directories when pkg-config is missing.
let desktopHeaderDirectories: [String] = {
  let pkgConfig = Process()
  pkgConfig.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  pkgConfig.arguments = ["pkg-config", "--cflags-only-I", "libnotify"]
  let output = Pipe()
  pkgConfig.standardOutput = output
  pkgConfig.standardError = FileHandle.nullDevice
  if (try? pkgConfig.run()) != nil {
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    pkgConfig.waitUntilExit()
    let directories = text.split(whereSeparator: \.isWhitespace).filter { $0.hasPrefix("-I") }
      .map { String($0.dropFirst(2)) }.filter { !$0.hasSuffix("-linux-gnu") }
    if pkgConfig.terminationStatus == 0 && !directories.isEmpty { return directories }
  }
  #if arch(arm64)
    let multiarch = "aarch64-linux-gnu"
  #else
    let multiarch = "x86_64-linux-gnu"
  #endif
  return [
    "/usr/include/glib-2.0", "/usr/lib/\(multiarch)/glib-2.0/include",
    "/usr/include/gdk-pixbuf-2.0",
  ]
}()

/// The same for NudgeLinux, the one Swift target that imports CDesktop (whose headers include
/// GLib's); it imports it `internal`ly, so no other target needs these paths.
///
/// Why `unsafeFlags` and not a `.systemLibrary(pkgConfig: "libnotify")` target: SwiftPM adds a
/// system library's `pkg-config --libs` to the link too, and these libraries must never be
/// linked (they are loaded with dlopen, so a command that posts nothing starts without them).
/// These header paths, for CDesktop (C) and NudgeLinux (Swift), are the only unsafe flags but
/// one: the release's linker, below.
let desktopHeaders: [SwiftSetting] = [
  .unsafeFlags(desktopHeaderDirectories.flatMap { ["-Xcc", "-I" + $0] })
]

let package = Package(
  name: "nudge",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "nudge", targets: ["nudge"]),
    // for the in-process benchmarks (Benchmarks/Package.swift)
    .library(name: "NudgeCore", targets: ["NudgeCore"]),
    .library(name: "NudgeStore", targets: ["NudgeStore"]),
    .library(name: "NudgeUseCases", targets: ["NudgeUseCases"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
  ],
  targets: [
    // Pure rules: days, flows, history, config, export format. No I/O.
    .target(name: "NudgeCore"),
    // The system's SQLite (libsqlite3.so.0), called directly (no Foundation at start-up) and
    // loaded with dlopen when a database is first opened: compiled against its header
    // (libsqlite3-dev), never linked, so a command that opens no database starts without it.
    .target(name: "CSQLite"),
    // SQLite: migrations, records, named writes.
    .target(name: "NudgeStore", dependencies: ["NudgeCore", "CSQLite"]),
    // libnotify (with GLib and GIO) and libsystemd, the system's shared libraries, loaded with
    // dlopen on first use: compiled against their headers (libnotify-dev, libsystemd-dev; the
    // include directories pkg-config names), never linked, so a command that posts nothing
    // starts without them.
    .target(
      name: "CDesktop",
      cSettings: [.unsafeFlags(desktopHeaderDirectories.map { "-I" + $0 })]),
    // Use cases: each decides with the core's rules and makes its writes in one transaction
    // (fire a reminder, …); the store below persists.
    .target(name: "NudgeUseCases", dependencies: ["NudgeCore", "NudgeStore"]),
    // The machine: processes, terminals, files, the user manager, desktop notifications and
    // the journal; the only target that imports the desktop's C libraries (privately).
    // zlib (libz.so.1), loaded with dlopen the first time a zip is read, never linked: an
    // Apple Health export.zip inflated as it is read.
    .target(name: "CZip"),
    .target(
      name: "NudgeLinux",
      dependencies: [
        "NudgeCore", "CDesktop", "CZip", .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: desktopHeaders),
    // Commands, prompts and terminal rendering, run against an injected context.
    .target(
      name: "NudgeCLI",
      dependencies: [
        "NudgeCore", "NudgeStore", "NudgeUseCases", "NudgeLinux",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // Released linked by the toolchain's lld with packed relative relocations (DT_RELR, read by
    // glibc 2.36's loader): the ~47,000 relative relocations take 9 KiB instead of 1.1 MiB,
    // applied at every start (scripts/build-release, BENCHMARKS.md). A link setting, so every
    // release build of nudge (build-release, the man page's generator) compiles alike. SwiftPM
    // has no setting for the linker or its -z options, hence unsafeFlags (release only).
    .executableTarget(
      name: "nudge", dependencies: ["NudgeCLI"],
      linkerSettings: [
        .unsafeFlags(
          ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
          .when(configuration: .release))
      ]),
    .testTarget(name: "NudgeCoreTests", dependencies: ["NudgeCore"]),
    .testTarget(name: "NudgeStoreTests", dependencies: ["NudgeStore"]),
    .testTarget(
      name: "NudgeUseCasesTests", dependencies: ["NudgeUseCases", "NudgeStore", "NudgeCore"]),
    .testTarget(
      name: "NudgeLinuxTests", dependencies: ["NudgeLinux", "NudgeCore"]),
    .testTarget(
      name: "NudgeCLITests",
      dependencies: ["NudgeCLI", "NudgeCore", "nudge"]),
  ]
)
