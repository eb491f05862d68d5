// swift-tools-version:6.1
// In-process benchmarks (ordo-one/benchmark), a package of their own so that building and
// testing Nudge never builds the benchmark library. Run: scripts/bench (or
// `swift package --package-path Benchmarks benchmark`).
import PackageDescription

let package = Package(
  name: "nudge-benchmarks",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "nudge", path: ".."),
    .package(
      url: "https://github.com/ordo-one/benchmark", exact: "1.38.1",
      traits: ["MallocInterposer"]),
  ],
  targets: [
    .executableTarget(
      name: "NudgeBenchmarks",
      dependencies: [
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "NudgeCore", package: "nudge"),
        .product(name: "NudgeStore", package: "nudge"),
        .product(name: "NudgeUseCases", package: "nudge"),
      ],
      path: "Benchmarks/NudgeBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
  ]
)
