import Foundation
import Testing

@testable import NudgeCore

/// The night rule against its second implementation: scripts/nudgetest/health_rules.py, written
/// from the README's words, not from the Swift. Both read the same generated history — 400
/// mornings in several zones, nights across a change of clock, a watch beside a sleep app and a
/// phone, nights with no sleep or only time in bed, overlapping and out-of-order segments, naps
/// at noon — and must agree on every night to 1e-9.
@Suite struct HealthRulesDifferentialTests {
  /// Two of them the same name to Unicode but not in their bytes: two sources to both rules.
  static let sources = [
    "Sam’s Apple Watch", "AutoSleep", "Sam’s iPhone", "Oura", "Café", "Cafe\u{301}",
  ]
  static let offsets = [0, 3600, -8 * 3600, 9 * 3600, 5 * 3600 + 1800]

  /// Nights of sleep segments, each night in a zone of its own, sometimes changing mid-night.
  static func history(mornings: Int, seed: UInt64) -> (days: [Day], samples: [HealthSample]) {
    var rng = SplitMix64(seed: seed)  // the same history on every run
    let first = Day("2025-10-01")!
    var days: [Day] = []
    var samples: [HealthSample] = []
    for n in 0..<mornings {
      let day = first.adding(days: n)
      days.append(day)
      if Int.random(in: 0..<12, using: &rng) == 0 { continue }  // no night recorded
      var offset = offsets.randomElement(using: &rng)!
      // bedtime on the evening's own clock, from 20:00 to 02:59
      let bedLocal =
        (day.ordinal - 1) * 86400 + 20 * 3600 + Int.random(in: 0..<(7 * 3600), using: &rng)
      var at = bedLocal - offset
      let writers = Array(sources.shuffled(using: &rng).prefix(Int.random(in: 1...3, using: &rng)))
      for writer in writers {
        var t = at + Int.random(in: -1800...1800, using: &rng)
        let segments = Int.random(in: 1...12, using: &rng)
        for _ in 0..<segments {
          let stage = HealthSample.SleepStage.allCases.randomElement(using: &rng)!
          let length = Int.random(in: 60...(90 * 60), using: &rng)
          // some segments overlap the one before, some leave a gap
          let start = t + Int.random(in: -600...600, using: &rng)
          if Int.random(in: 0..<20, using: &rng) == 0 {
            offset = offsets.randomElement(using: &rng)!  // the clock changed (a flight, DST)
          }
          samples.append(
            HealthSample(
              kind: .sleep, stage: stage, value: 0, start: Instant(seconds: start),
              end: Instant(seconds: start + length), offset: offset, source: writer,
              device: writer == "Oura" && Bool.random(using: &rng) ? "ring, not a Watch" : nil))
          t = start + length
        }
      }
      if Int.random(in: 0..<15, using: &rng) == 0 {
        // a nap from noon on the clock: the next night's
        at = day.ordinal * 86400 + 12 * 3600 - offset
        samples.append(
          HealthSample(
            kind: .sleep, stage: .asleepUnspecified, value: 0, start: Instant(seconds: at),
            end: Instant(seconds: at + 1200), offset: offset, source: sources[0], device: nil))
      }
      // a quantity beside the night: never read as sleep
      samples.append(
        HealthSample(
          kind: .heartRate, stage: nil, value: 55, start: Instant(seconds: at),
          end: Instant(seconds: at), offset: offset, source: sources[0], device: nil))
    }
    return (days, samples.shuffled(using: &rng))
  }

  static func python(_ input: [String: Any]) throws -> [String: Any] {
    var root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path)
    {
      root = root.deletingLastPathComponent()
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", root.appendingPathComponent("scripts/nudgetest/health_rules.py").path,
    ]
    // the input from a file: a large one must not wait on an output nobody reads yet
    let path = NSTemporaryDirectory() + "health-rules-\(UUID().uuidString).json"
    try JSONSerialization.data(withJSONObject: input).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let stdout = Pipe()
    process.standardInput = try #require(FileHandle(forReadingAtPath: path))
    process.standardOutput = stdout
    try process.run()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
  }

  @Test(arguments: [UInt64(53), 1_000_003, 9_999_991])
  func theSwiftRuleAndThePythonRuleAgreeOnEveryNight(seed: UInt64) throws {
    let (days, samples) = Self.history(mornings: 400, seed: seed)
    let input: [String: Any] = [
      "days": days.map(\.description),
      "samples": samples.map { s -> [String: Any] in
        [
          "kind": s.kind == .sleep ? "sleep" : "other", "stage": s.stage?.rawValue ?? "",
          "start": s.start.microseconds, "end": s.end.microseconds, "offset": s.offset,
          "source": s.source, "device": s.device ?? NSNull(),
        ]
      },
    ]
    let theirs = try Self.python(input)
    var nights = 0
    var severalSources = 0
    for day in days {
      let mine = HealthNight.night(endingOn: day, from: samples)
      let other = theirs[day.description] as? [String: Any]
      #expect(
        (mine == nil) == (other == nil),
        "\(day): \(String(describing: mine)) vs \(String(describing: other))")
      guard let mine, let other else { continue }
      nights += 1
      if Set(
        samples.filter {
          $0.kind == .sleep
            && $0.start.seconds + $0.offset >= day.adding(days: -1).ordinal * 86400 + 43200
            && $0.start.seconds + $0.offset < day.ordinal * 86400 + 43200
        }.map(\.source)
      ).count > 1 {
        severalSources += 1
      }
      #expect(mine.source == other["source"] as? String, "\(day)")
      #expect(mine.sleepStart.microseconds == (other["start"] as? Int), "\(day)")
      #expect(mine.wake.microseconds == (other["wake"] as? Int), "\(day)")
      #expect(abs(mine.asleepMinutes - (other["asleep"] as? Double ?? .nan)) < 1e-9, "\(day)")
      #expect(abs(mine.inBedMinutes - (other["in_bed"] as? Double ?? .nan)) < 1e-9, "\(day)")
      let stages = other["stages"] as? [String: Double] ?? [:]
      #expect(
        Dictionary(uniqueKeysWithValues: mine.stageMinutes.map { ($0.key.rawValue, $0.value) }).keys
          .sorted()
          == stages.keys.sorted(), "\(day)")
      for (stage, minutes) in mine.stageMinutes {
        #expect(abs(minutes - (stages[stage.rawValue] ?? .nan)) < 1e-9, "\(day) \(stage)")
      }
    }
    // the history holds what the rule must decide: most mornings a night, many of them
    // written by more than one source
    #expect(nights > 300, "\(nights) nights")
    #expect(severalSources > 100, "\(severalSources) nights of several sources")
  }
}
