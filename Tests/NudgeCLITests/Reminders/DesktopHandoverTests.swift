import Foundation
import NudgeCore
import NudgeLinux
import NudgeStore
import Testing

@testable import NudgeCLI

/// What a reminder does on the desktop a person sits at, in this process against scripted
/// doubles: Do Not Disturb (held, then missed), the focus token handed to the terminal, a
/// terminal that cannot start, and why a notification closed. The real servers (dunst, KDE
/// Plasma) show the same in the e2e suites.
@Suite struct DesktopHandoverTests {
  static let morning = "2026-11-20T07:00:00+01:00"

  func nudge(_ notifier: ScriptedNotifier, launcher: RecordingLauncher = RecordingLauncher())
    -> InProcess
  {
    var nudge = InProcess()
    nudge.notifier = notifier
    nudge.launcher = launcher
    return nudge
  }

  func log(_ nudge: InProcess) throws -> [[String: Any]] {
    try #require(try nudge.json("log") as? [[String: Any]])
  }

  func outcomes(_ nudge: InProcess) throws -> [String] {
    try log(nudge).compactMap { $0["outcome"] as? String }
  }

  @Test func heldByDoNotDisturbUntilTheWindowEndsItIsLoggedHeldThenReplacedByAMissedNotice()
    throws
  {
    let notifier = ScriptedNotifier([.heldBack(.withdrawn(.expired)), .answer(.left)])
    let nudge = nudge(notifier)
    let run = try nudge("notify", "morning", "--scheduled", now: Self.morning)
    #expect(run.status == 0)
    #expect(run.stdout == "morning: missed-dnd (elapse 2026-11-20T07:00:00+01:00)\n")
    #expect(try outcomes(nudge) == ["held", "missed-dnd"])
    // one notice, no buttons (nobody is left to answer them), its body links to the flow
    let missed = try #require(notifier.posts.last)
    #expect(notifier.posts.count == 2)
    #expect(missed.seconds == 0)
    #expect(missed.notification.actions.isEmpty)
    #expect(missed.notification.title == "Missed: Review your prep")
    #expect(missed.notification.link == .flow(.review))
    #expect(
      missed.notification.body(hyperlinks: true)
        == "This morning's reminder was held back by Do Not Disturb. Open it: <a href=\"nudge://review\">nudge://review</a>"
    )
    #expect(
      missed.notification.body(hyperlinks: false)
        == "This morning's reminder was held back by Do Not Disturb. Run: nudge review")
    #expect(missed.notification.category == "x-nudge.reminder")
    // the today view says so until the review is done
    let today = try nudge("today", now: "2026-11-20T09:00:00+01:00")
    #expect(
      today.stdout.contains(
        "This morning's reminder was held back by Do Not Disturb. Run: nudge review"))
    let review = try nudge(
      "review", "--why", "energy", "--challenge", "sugary-drinks", "--swap", "sparkling water",
      "--commit-to", "drink sparkling water", "--commit-from", "soda", "--no-input",
      now: "2026-11-20T09:05:00+01:00")
    #expect(review.status == 0, "\(review.stderr)")
    let after = try nudge("today", now: "2026-11-20T09:10:00+01:00")
    #expect(after.status == 0)
    #expect(!after.stdout.contains("held back"))
    // and the next day, nothing
    let tomorrow = try nudge("today", now: "2026-11-21T09:00:00+01:00")
    #expect(!tomorrow.stdout.contains("held back"))
  }

  @Test func heldThenLetThroughItIsLoggedShownWhenDoNotDisturbEnds() throws {
    let notifier = ScriptedNotifier([.heldBack(.closed(.dismissed), released: true)])
    let nudge = nudge(notifier)
    try nudge("notify", "morning", "--scheduled", now: Self.morning)
    #expect(try outcomes(nudge) == ["held", "shown", "dismissed"])
    #expect(notifier.posts.count == 1)
  }

  @Test func heldAndClickedInTheServersHistoryItOpensTheFlow() throws {
    let launcher = RecordingLauncher()
    let notifier = ScriptedNotifier([.heldBack(.action(.open))])
    let nudge = nudge(notifier, launcher: launcher)
    try nudge("notify", "morning", now: Self.morning)
    #expect(try outcomes(nudge) == ["held", "clicked"])
    #expect(launcher.links == ["nudge://review"])
  }

  @Test func theDemoHeldBackIsLoggedAsTheDemoNeverAsItsSlot() throws {
    let notifier = ScriptedNotifier([.heldBack(.withdrawn(.expired)), .answer(.left)])
    let nudge = nudge(notifier)
    let now = "2026-11-20T21:00:00+01:00"
    try nudge("notify", "demo", now: now)
    #expect(try outcomes(nudge) == ["held", "missed-dnd"])
    #expect(try log(nudge).map { $0["slot"] as? String } == ["demo", "demo"])
    #expect(notifier.titles.last == "Missed: Prep tonight (for tomorrow)")
    // the today view says nothing of an evening reminder held back: it was the demo
    #expect(!(try nudge("today", now: now).stdout.contains("held back")))
  }

  @Test func leftOnTheScreenUnderDoNotDisturbItIsLoggedAndReportedHeld() throws {
    let notifier = ScriptedNotifier([.heldBack(.left)])
    let nudge = nudge(notifier)
    let run = try nudge("notify", "morning", "--wait", "0", now: Self.morning)
    #expect(run.stdout == "morning: held\n")
    #expect(try outcomes(nudge) == ["held"])
  }

  @Test func aStoppedOrFinishedReminderHeldBackIsNotReplaced() throws {
    let notifier = ScriptedNotifier([.heldBack(.withdrawn(.stopped))])
    let nudge = nudge(notifier)
    try nudge("notify", "morning", now: Self.morning)
    #expect(try outcomes(nudge) == ["held", "withdrawn"])
    #expect(notifier.posts.count == 1)
  }

  @Test func theClickCarriesTheServersActivationTokenToTheLauncher() throws {
    let launcher = RecordingLauncher()
    let notifier = ScriptedNotifier(.action(.open, activationToken: "kwin-1_TIME4242"))
    let nudge = nudge(notifier, launcher: launcher)
    try nudge("notify", "morning", now: Self.morning)
    #expect(launcher.links == ["nudge://review"])
    #expect(launcher.tokens == ["kwin-1_TIME4242"])
  }

  @Test func whenNoTerminalStartsThePersonIsToldOnTheDesktopAndItIsLoggedOpenFailed() throws {
    let launcher = RecordingLauncher(
      failure: TerminalOpenFailure(
        reason: "konsole exited 1",
        message: "could not open a terminal (konsole exited 1): set one with …"))
    let notifier = ScriptedNotifier([.answer(.action(.open)), .answer(.left)])
    let nudge = nudge(notifier, launcher: launcher)
    let run = try nudge("notify", "morning", "--scheduled", now: Self.morning)
    #expect(run.status == 69)
    #expect(run.stderr == "nudge: could not open a terminal (konsole exited 1): set one with …\n")
    let notice = try #require(notifier.posts.last)
    #expect(notice.notification.actions.isEmpty)
    #expect(notice.seconds == 0)
    #expect(
      notice.notification.body
        == "Could not open a terminal (konsole exited 1). Run: nudge review — or set one: nudge config set terminal …"
    )
    let entries = try log(nudge)
    #expect(entries.compactMap { $0["outcome"] as? String } == ["shown", "clicked", "open-failed"])
    #expect(entries.last?["detail"] as? String == "konsole exited 1")
    #expect(entries.first?["detail"] is NSNull)
    let text = try nudge("log", now: "2026-11-20T07:05:00+01:00")
    #expect(text.stdout.contains("shown → clicked → open-failed (konsole exited 1)"))
  }

  @Test func theReminderAsksTheServerForNormalUrgencyAndItsCategory() {
    let reminder = DesktopNotification.reminder(.morning, streak: 3)
    #expect(reminder.category == "x-nudge.reminder")
    #expect(
      DesktopNotification.celebration(Celebration(tier: .quiet, message: "Nice")).category
        == "x-nudge.celebration")
    #expect(LinkHandlerFile.template.contains("\nX-GNOME-UsesNotifications=true\n"))
  }
}

extension Result {
  /// The error, nil on success.
  var failureValue: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
