import ArgumentParser
import Testing

@testable import NudgeCLI

/// `schedule preview` and `notify` are read without the parser when their words are plain
/// (`PlainWords`): what they read must be what the parser reads, and whatever is not plain is
/// left to the parser.
@Suite struct QuickParseTests {
  typealias Preview = ScheduleCommand.Preview

  @Test(arguments: [
    ["Mon..Fri 21:30", "--count", "1000"],
    ["*-*-* 07:00:00"],
    ["daily", "weekly", "--count=3", "--epoch"],
    ["--count", "100000", "hourly"],
    ["--tz", "Asia/Tokyo", "--from", "@1700000000", "7:00"],
    ["--tz=UTC", "--from=2026-11-20T21:00:00+01:00", "Sat *-*-1..7 12:00 UTC", "--count", "1"],
    ["", "--epoch"],
  ])
  func plainWordsReadAsTheParserReadsThem(rest: [String]) throws {
    let arguments = ["schedule", "preview"] + rest
    let quick = try #require(PreviewRequest.quickParse(arguments), "\(rest)")
    let parsed = try #require(try NudgeCLI.Nudge.parseAsRoot(arguments) as? Preview)
    #expect(quick == parsed.request)
  }

  @Test(arguments: [
    [],  // the parser says an expression is needed
    ["--count", "0", "daily"],  // out of range: the parser's message
    ["--count", "-5", "daily"],
    ["--count", "many", "daily"],
    ["--count"],
    ["daily", "--count", "2", "--count", "3"],
    ["daily", "--epoch", "--epoch"],
    ["daily", "--from", "--epoch"],
    ["daily", "--help"],
    ["-h"],
    ["daily", "--json"],
    ["--", "-1 daily"],
    ["-*-* 07:00"],
  ])
  func anythingElseIsLeftToTheParser(rest: [String]) {
    #expect(PreviewRequest.quickParse(["schedule", "preview"] + rest) == nil, "\(rest)")
  }

  static func fields(_ notify: NotifyCommand) -> [String] {
    [
      "\(notify.slot)", "\(notify.scheduled)", "\(notify.snoozed)", "\(notify.json)",
      "\(notify.wait as Any)", "\(notify.serverWait as Any)", "\(notify.snoozeSeconds as Any)",
    ]
  }

  @Test(arguments: [
    ["demo", "--wait", "0"],
    ["morning", "--scheduled"],
    ["evening", "--snoozed", "--snooze-seconds", "600", "--server-wait=120"],
    ["midday", "--json", "--wait", "1.5"],
    ["--wait=0", "weekly"],
    ["morning"],
  ])
  func notifyReadsAsTheParserReadsIt(rest: [String]) throws {
    let arguments = ["notify"] + rest
    let quick = try #require(NotifyCommand.quickParse(arguments), "\(rest)")
    let parsed = try #require(try NudgeCLI.Nudge.parseAsRoot(arguments) as? NotifyCommand)
    #expect(Self.fields(quick) == Self.fields(parsed))
  }

  @Test(arguments: [
    [], ["nightly"], ["demo", "--scheduled"], ["morning", "--scheduled", "--snoozed"],
    ["morning", "--wait", "-1"], ["morning", "--wait", "soon"], ["morning", "--wait"],
    ["morning", "--wait", "1", "--wait", "2"], ["morning", "--json", "--json"],
    ["morning", "evening"], ["morning", "--help"], ["morning", "--json=yes"],
    ["morning", "--snooze-seconds", "0"], ["morning", "--snooze-seconds", "1.5"],
    ["--", "morning"],
  ])
  func notifyLeavesAnythingElseToTheParser(rest: [String]) {
    #expect(NotifyCommand.quickParse(["notify"] + rest) == nil, "\(rest)")
  }

  @Test(arguments: [
    [], ["--csv"], ["-o", "backup.json"], ["--output", "b.json", "--csv"], ["--output=b.json"],
  ])
  func exportReadsAsTheParserReadsIt(rest: [String]) throws {
    let arguments = ["export"] + rest
    let quick = try #require(ExportCommand.quickParse(arguments), "\(rest)")
    let parsed = try #require(try NudgeCLI.Nudge.parseAsRoot(arguments) as? ExportCommand)
    #expect(
      [quick.csv.description, quick.output ?? "-"] == [
        parsed.csv.description, parsed.output ?? "-",
      ])
  }

  @Test(arguments: [
    ["extra"], ["-o"], ["-o", "a", "--output", "b"], ["-o", "a", "-o", "b"], ["--csv", "--csv"],
    ["--output", "-"], ["-o=b.json"], ["-ob.json"], ["--help"], ["--json"], ["--", "x"],
  ])
  func exportLeavesAnythingElseToTheParser(rest: [String]) {
    #expect(ExportCommand.quickParse(["export"] + rest) == nil, "\(rest)")
  }

  @Test(arguments: [
    [], ["--days", "3650"], ["--days=1", "--json"], ["--full", "--days", "30"],
    ["--json", "--full"], ["--tag", "health", "--days", "3"], ["--tag=mind"],
  ])
  func historyReadsAsTheParserReadsIt(rest: [String]) throws {
    let arguments = ["history"] + rest
    let quick = try #require(HistoryCommand.quickParse(arguments), "\(rest)")
    let parsed = try #require(try NudgeCLI.Nudge.parseAsRoot(arguments) as? HistoryCommand)
    #expect(
      [quick.days, quick.json ? 1 : 0, quick.full ? 1 : 0] == [
        parsed.days, parsed.json ? 1 : 0, parsed.full ? 1 : 0,
      ])
    #expect(quick.tag == parsed.tag)
  }

  @Test(arguments: [
    ["--days", "0"], ["--days", "3651"], ["--days", "-1"], ["--days", "week"], ["--days"],
    ["--days", "1", "--days", "2"], ["--json", "--json"], ["7"], ["--help"], ["--days", "1.5"],
  ])
  func historyLeavesAnythingElseToTheParser(rest: [String]) {
    #expect(HistoryCommand.quickParse(["history"] + rest) == nil, "\(rest)")
  }

  @Test(arguments: [
    [], ["--json"], ["--day", "yesterday"], ["--day=2026-11-15", "--json"], ["show", "--json"],
    ["brief"], ["brief", "--day", "monday"],
  ])
  func healthReadsAsTheParserReadsIt(rest: [String]) throws {
    let arguments = ["health"] + rest
    let quick = try #require(HealthCommand.quickParse(arguments), "\(rest)")
    let parsed = try NudgeCLI.Nudge.parseAsRoot(arguments)
    if let quick = quick as? HealthCommand.Show, let parsed = parsed as? HealthCommand.Show {
      #expect(
        [quick.day ?? "-", quick.json.description] == [parsed.day ?? "-", parsed.json.description])
    } else if let quick = quick as? HealthCommand.Brief, let parsed = parsed as? HealthCommand.Brief
    {
      #expect(quick.day == parsed.day)
    } else {
      Issue.record("\(rest): \(type(of: quick)) and \(type(of: parsed))")
    }
  }

  @Test(arguments: [
    ["import", "x.zip"], ["brief", "--json"], ["--day"], ["--day", "1", "--day", "2"],
    ["--json", "--json"], ["--help"], ["forget"], ["source", "list"], ["x"], ["show", "brief"],
  ])
  func healthLeavesAnythingElseToTheParser(rest: [String]) {
    #expect(HealthCommand.quickParse(["health"] + rest) == nil, "\(rest)")
  }

  @Test(arguments: [
    [], ["--format", "waybar"], ["--format=i3blocks", "--follow"], ["--json"], ["--open"],
    ["--follow", "--format", "polybar"], ["--format", "genmon", "--open"], ["--format", "json"],
  ])
  func statusReadsAsTheParserReadsIt(rest: [String]) throws {
    let arguments = ["status"] + rest
    let quick = try #require(StatusCommand.quickParse(arguments), "\(rest)")
    let parsed = try #require(try NudgeCLI.Nudge.parseAsRoot(arguments) as? StatusCommand)
    #expect(quick.format == parsed.format, "\(rest)")
    #expect([quick.json, quick.follow, quick.open] == [parsed.json, parsed.follow, parsed.open])
  }

  @Test(arguments: [
    ["--format", "xml"], ["--format"], ["--follow", "--open"], ["--json", "--format", "waybar"],
    ["--follow", "--follow"], ["--help"], ["now"], ["--format", "text", "--format", "json"],
  ])
  func statusLeavesAnythingElseToTheParser(rest: [String]) {
    #expect(StatusCommand.quickParse(["status"] + rest) == nil, "\(rest)")
  }

  @Test func otherCommandsAreNotReadHere() {
    for arguments in [["schedule", "set", "morning", "7:00"], ["preview", "daily"], ["schedule"]] {
      #expect(PreviewRequest.quickParse(arguments) == nil, "\(arguments)")
    }
    for arguments in [["log", "morning"], ["schedule", "notify", "morning"], []] {
      #expect(NotifyCommand.quickParse(arguments) == nil, "\(arguments)")
    }
    for arguments in [["import", "-o", "x"], ["history"], ["show", "--json"], []] {
      #expect(ExportCommand.quickParse(arguments) == nil, "\(arguments)")
    }
    for arguments in [["export"], ["show", "--days", "3"], ["log"], []] {
      #expect(HistoryCommand.quickParse(arguments) == nil, "\(arguments)")
    }
  }
}
