import Foundation
import Glibc
import Logging
import NudgeCore
import NudgeLinux
import NudgeStore
import Synchronization
import Testing

@testable import NudgeCLI

/// What the machine is asked for around a reminder: the snooze timer, the exit of a hang.
@Suite struct ReminderPlatformTests {
  @Test func withAUserManagerASnoozeIsATransientTimerAndThisProcessEnds() throws {
    let notifier = ScriptedNotifier(.action(.snooze))
    let platform = TestPlatform(userManager: true)
    var nudge = InProcess()
    nudge.notifier = notifier
    nudge.platform = platform
    let run = try nudge("notify", "evening", "--scheduled", now: ReminderSessionTests.evening)
    #expect(run.stdout == "evening: snoozed (elapse 2026-11-20T21:30:00+01:00)\n")
    let timer = try #require(platform.timers.first)
    #expect(platform.timers.count == 1)
    #expect(timer.afterSeconds == 900)
    #expect(timer.argv.dropFirst() == ["notify", "evening", "--snoozed"])
    #expect(timer.environment == ["NUDGE_DB": nudge.databasePath, "TZ": "Europe/Berlin"])
    let due = try #require(InstantFormat.parse(ReminderSessionTests.evening)).seconds + 900
    #expect(timer.unit == "nudge-snooze-evening-\(due)")
    let stored = try AppDatabase.open(path: nudge.databasePath).snoozes()
    #expect(stored == [Snooze(slot: .evening, due: due, elapse: due - 905)])
    // the timer's run, at its time, takes the snooze and posts it again
    let again = ScriptedNotifier(.closed(.dismissed))
    nudge.notifier = again
    let snoozed = try nudge("notify", "evening", "--snoozed", now: "2026-11-20T21:45:05+01:00")
    #expect(snoozed.stdout == "evening: dismissed (elapse 2026-11-20T21:30:00+01:00)\n")
    #expect(again.posts.count == 1)
  }

  @Test func aHungServerPrintsTheReminderLogsItAndEndsTheProcessWith69() throws {
    let notifier = ScriptedNotifier([.hang])
    let status = Mutex<Int32?>(nil)
    let logAtExit = Mutex<[String]>([])
    var nudge = InProcess()
    let path = nudge.databasePath
    nudge.notifier = notifier
    nudge.platform = TestPlatform(onExit: { code in
      status.withLock { $0 = code }
      let log = (try? AppDatabase.open(path: path).reminderLog(limit: 10)) ?? []
      logAtExit.withLock { $0 = log.map(\.outcome.rawValue) }
      notifier.hangEnded.signal()
    })
    let run = try nudge("notify", "morning", now: "2026-11-20T07:00:00+01:00")
    #expect(status.withLock { $0 } == 69)
    #expect(logAtExit.withLock { $0 } == ["shown", "undelivered"])
    #expect(run.stdout.hasPrefix("Nudge · Review your prep: "))
    #expect(
      run.stderr.contains("nudge: the notification server did not answer within 3 seconds."))
  }
}
