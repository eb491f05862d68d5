import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// The golden corpus (Tests/Golden/): command lines over databases, clocks and zones the
/// sessions fix, with what each printed, its exit code and the notifications a scripted server
/// was shown, recorded from the binary as it was. Every build replays them, so a change that
/// moves what a person sees shows here, line by line. `NUDGE_GOLDEN_RECORD=1` writes the
/// transcripts anew (only for a change meant to move them: say which in the commit).
@Suite struct GoldenCorpusTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Golden")

  static var sessions: [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".session") }.map { String($0.dropLast(8)) }.sorted()
  }

  @Test func theCorpusHoldsEveryCommandAndTwoHundredLines() throws {
    let sessions = Self.sessions
    try #require(!sessions.isEmpty, "no sessions in \(Self.folder.path)")
    var lines = 0
    var words = Set<String>()
    for name in sessions {
      let script = try GoldenSession.parse(
        String(contentsOf: Self.folder.appendingPathComponent(name + ".session"), encoding: .utf8)
      )
      for step in script.steps {
        guard case .command(let run) = step else { continue }
        lines += 1
        words.insert(run.arguments.first ?? "")
      }
    }
    #expect(lines >= 200, "the corpus has \(lines) command lines")
    let commands = Set(
      NudgeCLI.Nudge.configuration.subcommands.map { $0.configuration.commandName! })
    #expect(commands.subtracting(words).isEmpty, "never run: \(commands.subtracting(words))")
  }

  @Test(arguments: sessions) func replaysByteForByte(_ name: String) throws {
    let source = Self.folder.appendingPathComponent(name + ".session")
    let golden = Self.folder.appendingPathComponent(name + ".golden")
    let script = try GoldenSession.parse(String(contentsOf: source, encoding: .utf8))
    let transcript = try GoldenSession.run(script)
    if ProcessInfo.processInfo.environment["NUDGE_GOLDEN_RECORD"] == "1" {
      try transcript.write(to: golden, atomically: true, encoding: .utf8)
      return
    }
    let recorded = try String(contentsOf: golden, encoding: .utf8)
    if transcript != recorded {
      let now = URL(fileURLWithPath: NSTemporaryDirectory() + "\(name).golden.now")
      try transcript.write(to: now, atomically: true, encoding: .utf8)
      let was = recorded.components(separatedBy: "\n")
      let current = transcript.components(separatedBy: "\n")
      let first = Array(zip(was, current)).firstIndex { $0 != $1 } ?? min(was.count, current.count)
      let at = first < was.count ? was[first] : "(end)"
      let nowLine = first < current.count ? current[first] : "(end)"
      Issue.record(
        """
        \(name).golden differs at line \(first + 1):
          recorded: \(at)
          now:      \(nowLine)
        the whole transcript: \(now.path) (diff it against \(golden.path))
        """)
    }
  }
}

/// One session of the corpus: a fresh home, then steps in order. A step is a setting (`at`,
/// `zone`, `seed`, `env`, `notifier`, `typed`) for the lines after it, or a command line.
struct GoldenSession {
  /// How a command line runs.
  enum Mode: Equatable {
    /// The real binary, stdin not a terminal.
    case binary
    /// In this process, with typed answers at the prompts of a terminal.
    case typed(String)
    /// In this process, with a scripted notification server answering the post this way.
    case notifier(String)
  }

  /// A command line and what it runs with.
  struct Run {
    var arguments: [String]
    var now: String
    var zone: String
    var seed: String
    var env: [String: String]
    var mode: Mode
    var line: Int
  }

  enum Step {
    case command(Run)
    /// Writes TEXT to a file under the home (a plan file, an import, a forged sync line).
    case write(path: String, text: String)
    /// Copies a file of Tests/Fixtures to a path under the home (an older release's database).
    case copy(fixture: String, path: String)
  }

  var steps: [Step]

  struct ParseError: Error, CustomStringConvertible {
    var description: String
  }

  static func parse(_ text: String) throws -> GoldenSession {
    var now = "2026-11-20T08:00:00+01:00"
    var zone = "Europe/Berlin"
    var seed = "1"
    var env: [String: String] = [:]
    var pending: Mode = .binary
    var steps: [Step] = []
    for (index, raw) in text.components(separatedBy: "\n").enumerated() {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("#") { continue }
      let words = try split(line, line: index + 1)
      let rest = Array(words.dropFirst())
      switch words[0] {
      case "at": now = rest[0]
      case "zone": zone = rest[0]
      case "seed": seed = rest[0]
      case "env":
        for pair in rest {
          let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
          if parts.count == 2 { env[parts[0]] = parts[1] } else { env[parts[0]] = nil }
        }
      case "typed": pending = .typed(rest.joined(separator: "\n") + "\n")
      case "notifier": pending = .notifier(rest.joined(separator: " "))
      case "write":
        steps.append(.write(path: rest[0], text: rest.dropFirst().joined(separator: " ")))
      case "copy": steps.append(.copy(fixture: rest[0], path: rest[1]))
      case "nudge":
        steps.append(
          .command(
            Run(
              arguments: rest, now: now, zone: zone, seed: seed, env: env, mode: pending,
              line: index + 1)))
        pending = .binary
      default:
        throw ParseError(description: "line \(index + 1): unknown step '\(words[0])'")
      }
    }
    return GoldenSession(steps: steps)
  }

  /// Splits a line as a shell would: words by spaces, '…' literal, "…" with \n \t \\ \" \e.
  static func split(_ line: String, line number: Int) throws -> [String] {
    var words: [String] = []
    var word = ""
    var inWord = false
    var chars = Array(line)[...]
    while let c = chars.popFirst() {
      switch c {
      case " ", "\t":
        if inWord { words.append(word) }
        word = ""
        inWord = false
      case "'":
        inWord = true
        guard let end = chars.firstIndex(of: "'") else {
          throw ParseError(description: "line \(number): an unclosed '")
        }
        word += String(chars[..<end])
        chars = chars[(end + 1)...]
      case "\"":
        inWord = true
        var closed = false
        while let d = chars.popFirst() {
          if d == "\"" {
            closed = true
            break
          }
          if d == "\\", let e = chars.popFirst() {
            switch e {
            case "n": word += "\n"
            case "t": word += "\t"
            case "e": word += "\u{1B}"
            case "u":
              let hex = String(chars.prefix(4))
              chars = chars.dropFirst(4)
              word += String(UnicodeScalar(UInt32(hex, radix: 16) ?? 63) ?? "?")
            default: word.append(e)
            }
          } else {
            word.append(d)
          }
        }
        guard closed else { throw ParseError(description: "line \(number): an unclosed \"") }
      default:
        inWord = true
        word.append(c)
      }
    }
    if inWord { words.append(word) }
    return words
  }

  /// Runs every step in one fresh home and writes what each command did.
  static func run(_ session: GoldenSession) throws -> String {
    var binary = Nudge()
    binary.environment["XDG_CONFIG_HOME"] = binary.home + "/config"
    var transcript = ""
    for step in session.steps {
      let run: Run
      switch step {
      case .command(let command): run = command
      case .write(let path, let text):
        let url = URL(fileURLWithPath: binary.home + "/" + path)
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        transcript += "(wrote \(path))\n\n"
        continue
      case .copy(let fixture, let path):
        let url = URL(fileURLWithPath: binary.home + "/" + path)
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
          at: GoldenCorpusTests.folder.deletingLastPathComponent().appendingPathComponent(
            "Fixtures/" + fixture), to: url)
        transcript += "(copied Fixtures/\(fixture) to \(path))\n\n"
        continue
      }
      // the session's zone and seed, unless a line's own environment names them
      var env = run.env
      if env["TZ"] == nil { env["TZ"] = run.zone }
      if env["NUDGE_SEED"] == nil { env["NUDGE_SEED"] = run.seed }
      let arguments = run.arguments.map {
        $0.replacingOccurrences(of: "$HOME", with: binary.home)
      }
      let shown = run.arguments.map(quoted).joined(separator: " ")
      transcript += "$ nudge \(shown)\n  at \(run.now) in \(run.zone)"
      transcript +=
        run.env.isEmpty
        ? ""
        : ", " + run.env.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: " ")
      transcript += "\n"
      let result: Nudge.Result
      var posted: [String] = []
      switch run.mode {
      case .binary:
        result = try binary.run(arguments, now: run.now, env: env)
      case .typed(let answers):
        transcript += "  typed: \(quoted(answers))\n"
        let nudge = InProcess(home: binary.home)
        result = try nudge.run(arguments, now: run.now, stdin: answers, env: env, terminal: true)
      case .notifier(let answer):
        transcript += "  the server answers: \(answer)\n"
        var nudge = InProcess(home: binary.home)
        // each word answers one post, in order; a post after them (a celebration) expires
        let answers = answer.split(separator: " ").map(String.init) + ["expired", "expired"]
        let notifier = ScriptedNotifier(try answers.map { .answer(try outcome($0)) })
        let launcher = RecordingLauncher()
        let platform = TestPlatform()
        nudge.notifier = notifier
        nudge.launcher = launcher
        nudge.platform = platform
        nudge.clock = TestClock(try #require(InstantFormat.parse(run.now)))
        result = try nudge.run(arguments, now: run.now, env: env)
        for post in notifier.posts {
          let n = post.notification
          posted.append("title: \(n.title)")
          posted.append(
            contentsOf: n.body(hyperlinks: true).components(separatedBy: "\n").map { "body: \($0)" }
          )
          posted.append(
            "buttons: " + n.actions.map { "\($0.id)=\($0.label)" }.joined(separator: ", "))
          posted.append("icon: \(n.icon), category: \(n.category), wait: \(post.seconds)")
        }
        posted += launcher.links.map { "opened: \($0)" }
        posted += platform.started.map { "started: \($0.joined(separator: " "))" }
        posted += platform.timers.map { "timer: \($0)" }
      }
      transcript += "exit \(result.status)\n"
      let stdout = settled(result.stdout, startedAt: run.now)
      transcript += block("stdout", stdout, home: binary.home)
      transcript += block("stderr", result.stderr, home: binary.home)
      transcript += block("notifications", posted.map { $0 + "\n" }.joined(), home: binary.home)
      transcript += "\n"
    }
    try? FileManager.default.removeItem(atPath: binary.home)
    return transcript
  }

  /// `text` with each time of day that is 1 to 5 seconds after `startedAt` written as
  /// `startedAt`: the binary's clock starts at `NUDGE_NOW` and moves on while it runs (what
  /// waits reads it), so a time written by a slow run (sync's `last_wrote`, say) may be a
  /// second late on a loaded machine.
  static func settled(_ text: String, startedAt: String) -> String {
    guard let start = InstantFormat.parse(startedAt) else { return text }
    let prefix = String(startedAt.prefix(17))  // 2026-11-18T21:00:
    let offset = String(startedAt.suffix(6))  // +01:00
    var out = text
    for late in 1...5 {
      let later = start.adding(seconds: Double(late))
      guard let shown = InstantFormat.parse(prefix + String(format: "%02d", late) + offset),
        shown == later
      else { continue }
      out = out.replacingOccurrences(
        of: prefix + String(format: "%02d", late) + offset, with: startedAt)
    }
    return out
  }

  static func outcome(_ answer: String) throws -> DesktopNotification.Ending {
    switch answer {
    case "expired": return .closed(.expired)
    case "dismissed": return .closed(.dismissed)
    case "left": return .left
    case "open": return .action(.open, activationToken: "token-1")
    case "done": return .action(.done)
    case "skip": return .action(.skip)
    case "snooze": return .action(.snooze)
    default: throw GoldenSession.ParseError(description: "no such answer: \(answer)")
    }
  }

  static func quoted(_ word: String) -> String {
    let plain = word.unicodeScalars.allSatisfy {
      CharacterSet.alphanumerics.contains($0) || "-_=./:,@+%".unicodeScalars.contains($0)
    }
    if plain && !word.isEmpty { return word }
    var out = "\""
    for scalar in word.unicodeScalars {
      switch scalar {
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\u{1B}": out += "\\e"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          out += String(format: "\\u%04x", scalar.value)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  /// A stream's text, each line marked with "| " (so trailing spaces show), the run's home and
  /// the ids a run draws at random (UUIDs, a habit's uid, a device's id) put as names.
  static func block(_ name: String, _ text: String, home: String) -> String {
    guard !text.isEmpty else { return "" }
    var text = text.replacingOccurrences(of: home, with: "$HOME")
    text = text.replacingOccurrences(of: Nudge.binary, with: "$NUDGE")
    text = text.replacingOccurrences(
      of: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", with: "<uuid>",
      options: .regularExpression)
    text = text.replacingOccurrences(
      of: "\\b[0-9a-f]{30}\\b", with: "<habit-uid>", options: .regularExpression)
    text = text.replacingOccurrences(
      of: "\\b[0-9a-f]{16}\\b", with: "<device>", options: .regularExpression)
    text = text.replacingOccurrences(
      of: "\\[id [0-9a-f]{8}\\]", with: "[id <id>]", options: .regularExpression)
    var lines = text.components(separatedBy: "\n")
    let ends = lines.last == ""
    if ends { lines.removeLast() }
    return "\(name):\n" + lines.map { "| \($0)\n" }.joined() + (ends ? "" : "(no newline at end)\n")
  }
}
