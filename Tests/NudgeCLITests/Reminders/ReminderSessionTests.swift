import Foundation
import Glibc
import Logging
import NudgeCore
import NudgeLinux
import NudgeStore
import Synchronization
import Testing

@testable import NudgeCLI

/// A reminder's whole life in this process, from the claim to its last outcome, against a
/// scripted notification server and a recording launcher: every outcome, its log and what the
/// click opens. (The real servers are the e2e suites' smoke layer.)
@Suite struct ReminderSessionTests {
  static let evening = "2026-11-20T21:30:05+01:00"

  /// A Nudge whose notification server answers as `script` says.
  func nudge(_ notifier: ScriptedNotifier, clock: TestClock? = nil) -> (
    InProcess, RecordingLauncher
  ) {
    var nudge = InProcess()
    let launcher = RecordingLauncher()
    nudge.notifier = notifier
    nudge.launcher = launcher
    nudge.clock = clock
    return (nudge, launcher)
  }

  /// The reminder log's outcomes, oldest first.
  func outcomes(_ nudge: InProcess) throws -> [String] {
    let log = try #require(try nudge.json("log") as? [[String: Any]])
    return log.compactMap { $0["outcome"] as? String }
  }

  @Test func aClickOpensTheFlowTheReminderOffers() throws {
    let notifier = ScriptedNotifier(.action(.open))
    let (nudge, launcher) = nudge(notifier)
    let run = try nudge("notify", "evening", "--scheduled", now: Self.evening)
    #expect(run.status == 0)
    #expect(run.stdout == "evening: clicked (elapse 2026-11-20T21:30:00+01:00)\n")
    #expect(notifier.titles == ["Prep tonight (for tomorrow)"])
    #expect(launcher.links == ["nudge://prep"])
    #expect(try outcomes(nudge) == ["shown", "clicked"])
  }

  @Test func onceThePrepIsDoneTheEveningOffersTheCheckin() throws {
    let notifier = ScriptedNotifier(.action(.open))
    let (nudge, launcher) = nudge(notifier)
    try nudge("prep", "--item", "water=yes", "--no-input", now: "2026-11-20T20:00:00+01:00")
    try nudge("notify", "evening", now: Self.evening)
    #expect(notifier.titles == ["Check in on today"])
    #expect(launcher.links == ["nudge://checkin"])
  }

  @Test func allPreppedSavesThePrepAndPostsTheCelebrationWhoseReplayOpensIt() throws {
    let notifier = ScriptedNotifier(.action(.done), .action(.open))
    let (nudge, launcher) = nudge(notifier)
    let run = try nudge("notify", "evening", "--scheduled", "--json", now: Self.evening)
    #expect(run.stdout.contains("\"outcome\" : \"done\""))
    #expect(notifier.posts.count == 2)
    #expect(notifier.posts.last?.notification.actions.map(\.label) == ["Replay"])
    #expect(launcher.links.count == 1)
    #expect(launcher.links.first?.hasPrefix("nudge://celebrate?replay=") == true)
    let db = try AppDatabase.open(path: nudge.databasePath)
    let day = try #require(Day("2026-11-20"))
    let prep = try #require(try db.prep(on: day))
    #expect(prep.stickyNotes && prep.produce && prep.water && prep.breakfast)
    #expect(try outcomes(nudge) == ["shown", "done"])
  }

  @Test func aSnoozeIsStoredAndComesBackAfterItsTime() throws {
    let start = try #require(InstantFormat.parse(Self.evening))
    let clock = TestClock(start)
    let notifier = ScriptedNotifier(.action(.snooze), .closed(.dismissed))
    let (nudge, _) = nudge(notifier, clock: clock)
    let run = try nudge("notify", "evening", "--scheduled", now: Self.evening)
    #expect(run.stdout.hasPrefix("evening: dismissed"))
    // no user manager here: this process waited the snooze out (900 s by the test clock)
    #expect(clock.current.seconds - start.seconds == 900)
    #expect(notifier.posts.count == 2)
    #expect(notifier.posts[0].notification.actions.last?.label == "Snooze 15 min")
    #expect(try AppDatabase.open(path: nudge.databasePath).snoozes().isEmpty)
    #expect(try outcomes(nudge) == ["shown", "snoozed", "dismissed"])
  }

  @Test(arguments: [
    (DesktopNotification.Ending.closed(.dismissed), "dismissed"), (.closed(.expired), "expired"),
    (.withdrawn(.expired), "withdrawn"),
    (.withdrawn(.stopped), "withdrawn"),
  ])
  func anUnansweredReminderIsLoggedAsItEnded(outcome: DesktopNotification.Ending, logged: String)
    throws
  {
    let notifier = ScriptedNotifier(outcome)
    let (nudge, launcher) = nudge(notifier)
    let run = try nudge("notify", "morning", "--json", now: "2026-11-20T07:00:00+01:00")
    #expect(run.status == 0)
    #expect(run.stdout.contains("\"outcome\" : \"\(logged)\""))
    #expect(launcher.links.isEmpty)
    #expect(try outcomes(nudge) == ["shown", logged])
  }

  @Test func aFlowFinishedElsewhereTakesTheReminderDown() throws {
    let other = InProcess()
    let notifier = ScriptedNotifier([
      .checkDoneElsewhere(before: {
        var elsewhere = other
        elsewhere.environment["NUDGE_DB"] = nil
        _ = try? elsewhere("prep", "--item", "water=yes", "--no-input", now: Self.evening)
      })
    ])
    var (nudge, _) = nudge(notifier)
    // both share one database file
    nudge.environment["XDG_DATA_HOME"] = other.home + "/data"
    let run = try nudge("notify", "evening", now: Self.evening)
    #expect(run.stdout == "evening: done-elsewhere\n")
    #expect(try outcomes(nudge) == ["shown", "done-elsewhere"])
  }

  @Test func leftOnTheScreenItHasNoButtonsAndIsLoggedOnce() throws {
    let notifier = ScriptedNotifier(.left)
    let (nudge, _) = nudge(notifier)
    let run = try nudge("notify", "demo", "--wait", "0", now: Self.evening)
    #expect(run.stdout == "demo: shown\n")
    let posted = try #require(notifier.posts.first?.notification)
    #expect(posted.actions.isEmpty)
    #expect(posted.body.hasSuffix("Run: nudge prep"))
    #expect(try outcomes(nudge) == ["shown"])
  }

  @Test func aServerThatGoesAwayOrRefusesLeavesThePrintedReminderAnd69() throws {
    for (step, logged) in [
      (
        ScriptedNotifier.Step.answer(.undelivered("the notification server went away")),
        ["shown", "undelivered"]
      ),
      (.refuse("the notification server refused it"), ["undelivered"]),
    ] {
      let (nudge, launcher) = nudge(ScriptedNotifier([step]))
      let run = try nudge("notify", "morning", now: "2026-11-20T07:00:00+01:00")
      #expect(run.status == 69)
      #expect(run.stdout.hasPrefix("Nudge · Review your prep: "))
      #expect(run.stdout.contains("Run: nudge review"))
      #expect(run.stderr.contains("the reminder was printed instead"))
      #expect(launcher.links.isEmpty)
      #expect(try outcomes(nudge) == logged)
    }
  }

  @Test func noServerPostsNothingAndSaysSoOnce() throws {
    let notifier = ScriptedNotifier([], unavailable: "no notification server is running")
    let (nudge, _) = nudge(notifier)
    let run = try nudge("notify", "evening", "--scheduled", now: Self.evening)
    #expect(run.status == 69)
    #expect(notifier.posts.isEmpty)
    #expect(run.stdout.contains("Run: nudge prep"))
    #expect(run.stdout.contains("evening: undelivered (elapse 2026-11-20T21:30:00+01:00)"))
    #expect(
      run.stderr
        == "nudge: no notification server is running; the reminder was printed instead. Run the command it names.\n"
    )
    #expect(try outcomes(nudge) == ["undelivered"])
  }

  @Test func aSecondFiringOfOneElapseIsADuplicateAndADoneFlowIsSkipped() throws {
    let notifier = ScriptedNotifier(.closed(.dismissed))
    let (nudge, _) = nudge(notifier)
    try nudge("notify", "evening", "--scheduled", now: Self.evening)
    let again = try nudge("notify", "evening", "--scheduled", now: "2026-11-20T21:30:09+01:00")
    #expect(again.stdout == "evening: duplicate (elapse 2026-11-20T21:30:00+01:00)\n")
    try nudge("prep", "--item", "water=yes", "--no-input", now: "2026-11-21T20:00:00+01:00")
    try nudge("checkin", "--feel", "fine", "--no-input", now: "2026-11-21T20:10:00+01:00")
    let done = try nudge("notify", "evening", "--scheduled", now: "2026-11-21T21:30:05+01:00")
    #expect(done.stdout == "evening: skipped-done (elapse 2026-11-21T21:30:00+01:00)\n")
    #expect(notifier.posts.count == 1)
    #expect(try outcomes(nudge) == ["shown", "dismissed", "duplicate", "skipped-done"])
  }

  @Test func theFlagsAreCheckedBeforeAnythingRuns() throws {
    let nudge = InProcess()
    for arguments in [
      ["notify", "demo", "--scheduled"], ["notify", "morning", "--scheduled", "--snoozed"],
      ["notify", "tea"], ["notify", "morning", "--wait", "-1"],
    ] {
      let run = try nudge.run(arguments)
      #expect(run.status == 64, "\(arguments)")
      #expect(run.stderr.hasPrefix("nudge: ") && run.stderr.split(separator: "\n").count == 1)
    }
    #expect(try nudge.run(["notify", "tea"]).stderr.contains("'demo'"))
  }
}

/// Records what a service told its manager.
final class RecordingServiceManager: ServiceManager {
  private let sent = Mutex<[String]>([])
  var states: [String] { sent.withLock { $0 } }

  func notify(_ state: String) -> Bool {
    sent.withLock { $0.append(state) }
    return true
  }

  var watchdogInterval: Duration? { nil }
}
