import Foundation
import Glibc
import Logging
import NudgeCore
import NudgeLinux
import NudgeStore
import Synchronization
import Testing

@testable import NudgeCLI

/// The daemon's scheduler: it fires what is due and stops when its wake watch is stopped (what
/// SIGTERM and SIGINT do in `nudge daemon`).
@Suite struct DaemonServiceTests {
  /// Runs the scheduler on a thread of its own (as the daemon runs it on its main thread) until
  /// its first firing is started, then stops its watch and waits for it to return.
  static func runUntilItFires(_ ctx: Context, _ platform: TestPlatform) async throws {
    let scheduler = ReminderScheduler(ctx: ctx, logger: Logger(label: "test"), exitAfter: nil)
    let watch = WakeWatch(zonePaths: [])
    let finished = AsyncStream<Result<Void, any Error>>.makeStream()
    Thread {
      finished.continuation.yield(Result { try scheduler.run(watch) })
      finished.continuation.finish()
    }.start()
    // the first pass fires at once: its first program started is the event waited for
    var starts = platform.startEvents.stream.makeAsyncIterator()
    _ = await starts.next()
    watch.stop()
    for await result in finished.stream { try result.get() }
  }

  @Test(.timeLimit(.minutes(1))) func theDaemonFiresADueSlotAndStopsOnAGracefulShutdown()
    async throws
  {
    let platform = TestPlatform()
    let manager = RecordingServiceManager()
    var ctx = try InProcess().context(
      now: ReminderSessionTests.evening, stdin: nil, env: [:], output: CapturedOutput())
    ctx.platform = platform
    ctx.serviceManager = manager
    try await Self.runUntilItFires(ctx, platform)
    // each enabled slot's latest unclaimed elapse, once (the child decides it is stale)
    #expect(
      platform.started.map { Array($0.dropFirst()) }
        == [["notify", "morning", "--scheduled"], ["notify", "evening", "--scheduled"]])
    #expect(manager.states.first?.hasPrefix("READY=1") == true)
    #expect(manager.states.last == "STOPPING=1")
  }

  @Test(.timeLimit(.minutes(1))) func theDaemonFiresAHabitsOwnReminderToo() async throws {
    let nudge = InProcess()
    try #require(
      try nudge("habit", "add", "Stretch", "--at", "21:00", now: "2026-11-20T08:00:00+01:00")
        .status == 0)
    let platform = TestPlatform()
    var ctx = try nudge.context(
      now: ReminderSessionTests.evening, stdin: nil, env: [:], output: CapturedOutput())
    ctx.platform = platform
    ctx.serviceManager = RecordingServiceManager()
    try await Self.runUntilItFires(ctx, platform)
    #expect(
      platform.started.map { Array($0.dropFirst()) }.contains(["notify", "habit.h1", "--scheduled"]
      ),
      "\(platform.started)")
  }

  @Test(.timeLimit(.minutes(1))) func theFiringsItStartsNeverGetTheTestOnlyVariables() async throws
  {
    let platform = TestPlatform()
    var ctx = try InProcess().context(
      now: ReminderSessionTests.evening, stdin: nil,
      env: ["NUDGE_NOW": "2026-11-20T21:30:05+01:00", "NUDGE_SEED": "7", "LANG": "C.UTF-8"],
      output: CapturedOutput())
    ctx.platform = platform
    ctx.serviceManager = RecordingServiceManager()
    try await Self.runUntilItFires(ctx, platform)
    let environments = platform.startedEnvironments
    #expect(!environments.isEmpty)
    for environment in environments {
      #expect(environment["NUDGE_NOW"] == nil && environment["NUDGE_SEED"] == nil)
      #expect(environment["LANG"] == "C.UTF-8")  // the rest is passed on
    }
  }
}
