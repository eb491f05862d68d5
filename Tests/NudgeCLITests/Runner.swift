import Foundation

/// Runs the real `nudge` binary in a private data directory with a fixed clock.
struct Nudge {
  static let binary: String = {
    if let explicit = ProcessInfo.processInfo.environment["NUDGE_BIN"] { return explicit }
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("nudge").path
    if FileManager.default.isExecutableFile(atPath: beside) { return beside }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    return root.appendingPathComponent(".build/debug/nudge").path
  }()

  let home: String
  var environment: [String: String]

  init() {
    home = NSTemporaryDirectory() + "nudge-cli-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    environment = [
      "HOME": home, "XDG_DATA_HOME": home + "/data", "TZ": "Europe/Berlin",
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      "NUDGE_NOW": "2026-11-20T08:00:00+01:00",
    ]
  }

  var databasePath: String { home + "/data/nudge/nudge.sqlite3" }

  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  @discardableResult
  func callAsFunction(
    _ arguments: String..., now: String? = nil, stdin: String? = nil, env: [String: String] = [:]
  ) throws -> Result {
    try run(arguments, now: now, stdin: stdin, env: env)
  }

  /// Runs a command with `--json` and decodes what it printed.
  func json(_ arguments: String..., now: String? = nil) throws -> Any {
    let result = try run(arguments + ["--json"], now: now)
    guard result.status == 0 else {
      throw NSError(
        domain: "nudge", code: Int(result.status),
        userInfo: [NSLocalizedDescriptionKey: result.stderr])
    }
    return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
  }

  func run(
    _ arguments: [String], now: String? = nil, stdin: String? = nil, env: [String: String] = [:]
  ) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.binary)
    process.arguments = arguments
    var environment = self.environment
    if let now { environment["NUDGE_NOW"] = now }
    environment.merge(env) { $1 }
    process.environment = environment
    let input = Pipe()
    let output = Pipe()
    let error = Pipe()
    process.standardInput = stdin == nil ? FileHandle.nullDevice : input
    process.standardOutput = output
    process.standardError = error
    try process.run()
    if let stdin {
      input.fileHandleForWriting.write(Data(stdin.utf8))
      try input.fileHandleForWriting.close()
    }
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: err, as: UTF8.self))
  }
}
