import Foundation
import NudgeCore
import Testing

@testable import NudgeLinux

/// `LinuxPlatform` against the real system, with stand-ins for systemd-run and the user
/// manager's socket in a private directory (no desktop, no user manager needed).
@Suite struct LinuxPlatformTests {
  let platform = LinuxPlatform()

  /// A fresh private directory.
  func directory() throws -> String {
    let path = NSTemporaryDirectory() + "nudge-platform-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// Launches a terminal program this test wrote.
  func launch(_ argv: [String], _ environment: [String: String]) -> TerminalStart {
    platform.launchTerminal(argv, environment: environment)
  }

  /// Writes an executable file. Its text goes to a plain file first; `cp`, a process of its
  /// own, makes the program from it. A file this many-threaded test process opened for writing
  /// can be held open by a child another test forks at that moment, and exec then fails with
  /// ETXTBSY ("Text file busy"); cp's descriptor is never inherited by anyone.
  func executable(_ path: String, _ text: String) throws {
    let source = path + ".text"
    try text.write(toFile: source, atomically: false, encoding: .utf8)
    try copyProgram(source, to: path)
    unlink(source)
  }

  /// Copies the program at `source` to `path` (mode 755) with `cp` (see `executable`).
  func copyProgram(_ source: String, to path: String) throws {
    unlink(path)
    try #require(
      try platform.run(["/bin/cp", source, path], environment: [:]) == 0
        && chmod(path, 0o755) == 0)
  }

  /// An environment whose user manager "runs" (its socket path exists) and whose PATH is `bin`
  /// alone.
  func managed(_ root: String, bin: String) throws -> [String: String] {
    try FileManager.default.createDirectory(
      atPath: root + "/runtime/systemd", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: root + "/runtime/systemd/private", contents: nil)
    return ["XDG_RUNTIME_DIR": root + "/runtime", "PATH": bin]
  }

  @Test func theEnvironmentIsReadAsGetenvReadsIt() {
    // raw entries: a name given twice (the first counts), '=' inside a value, an empty value,
    // an entry without '=', invalid UTF-8 in a name and in a value
    let raw: [[UInt8]] = [
      Array("HOME=/home/ana".utf8), Array("HOME=/elsewhere".utf8), Array("URL=a=b=c".utf8),
      Array("EMPTY=".utf8), Array("NOEQUALS".utf8), [0x42, 0xFF, 0x3D, 0x78],
      [0x56, 0x3D, 0x61, 0xC3, 0x28, 0x62],
    ]
    let entries = raw.map { bytes in
      bytes.withUnsafeBufferPointer { buffer -> UnsafeMutablePointer<CChar> in
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: buffer.count + 1)
        for (i, byte) in buffer.enumerated() { copy[i] = CChar(bitPattern: byte) }
        copy[buffer.count] = 0
        return copy
      }
    }
    defer { for entry in entries { entry.deallocate() } }
    let list: [UnsafeMutablePointer<CChar>?] = entries + [nil]
    let environment = list.withUnsafeBufferPointer {
      LinuxPlatform.environment(entries: $0.baseAddress!)
    }
    #expect(
      environment == [
        "HOME": "/home/ana", "URL": "a=b=c", "EMPTY": "", "B\u{FFFD}": "x", "V": "a\u{FFFD}(b",
      ])
    // and this process's own, as Foundation reads it
    #expect(LinuxPlatform.environment() == ProcessInfo.processInfo.environment)
  }

  /// A file is read whole in one read of its size (no zero-filled 64 KiB buffer first), and
  /// still whole when it is larger than a read, empty, says it is empty (/proc), or over the limit.
  @Test func aFileIsReadWholeWhateverItsSize() throws {
    let dir = try directory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    for size in [0, 1, 4095, 65536, 65537, 200_001] {
      let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 251) }
      let path = dir + "/f\(size)"
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      #expect(try StandardStreams.readFile(path, limit: 1 << 20).get() == bytes, "\(size) bytes")
      #expect(
        try StandardStreams.readFile(path, limit: size).get() == bytes, "\(size) at the limit")
      if size > 0 {
        #expect(throws: StandardStreams.FileReadFailure.tooLarge) {
          try StandardStreams.readFile(path, limit: size - 1).get()
        }
      }
    }
    // a size of 0 that has bytes: read on until the end
    let status = try StandardStreams.readFile("/proc/self/status", limit: 1 << 20).get()
    #expect(String(decoding: status, as: UTF8.self).contains("\nPid:"))
  }

  @Test func runWaitsForItsChildAndReportsItsStatus() throws {
    #expect(try platform.run(["/bin/sh", "-c", "exit 7"], environment: [:]) == 7)
    #expect(try platform.run(["/bin/sh", "-c", "kill -HUP $$"], environment: [:]) == 128 + SIGHUP)
  }

  @Test func aStartedChildIsWaitedForWithoutBlocking() throws {
    let sleeper = try platform.start(["/bin/sleep", "30"], environment: [:], .attached)
    #expect(Spawn.exitStatusIfFinished(sleeper) == nil)
    kill(sleeper, SIGTERM)
    var status: Int32? = nil
    waitUntilExited(sleeper)
    status = Spawn.exitStatusIfFinished(sleeper)
    #expect(status == 128 + SIGTERM)
    let quick = try platform.start(["/bin/sh", "-c", "exit 5"], environment: [:], .attached)
    status = nil
    waitUntilExited(quick)
    status = Spawn.exitStatusIfFinished(quick)
    #expect(status == 5)
  }

  @Test func captureReadsTheChildsOutput() {
    let text = platform.capture(
      ["/bin/sh", "-c", "echo $GREETING"], environment: ["GREETING": "hi"])
    #expect(text == "hi\n")
  }

  @Test func whichLooksOnThePathForExecutablesOnly() throws {
    let bin = try directory()
    try executable(bin + "/nudge-tool", "#!/bin/sh\n")
    _ = FileManager.default.createFile(atPath: bin + "/nudge-data", contents: Data())
    #expect(platform.which("nudge-tool", path: "/nonexistent:" + bin) == bin + "/nudge-tool")
    #expect(platform.which("nudge-data", path: bin) == nil)
    #expect(platform.which("nudge-tool", path: "/usr/bin:/bin") == nil)
  }

  @Test func theUserManagerRunsWhereItsSocketIs() throws {
    let root = try directory()
    #expect(!platform.hasUserManager(environment: [:]))
    #expect(!platform.hasUserManager(environment: ["XDG_RUNTIME_DIR": root]))
    #expect(platform.hasUserManager(environment: try managed(root, bin: root)))
  }

  @Test func standardErrorIsTheJournalWhenJOURNALSTREAMNamesIt() {
    var st = stat()
    #expect(fstat(STDERR_FILENO, &st) == 0)
    let named = "\(st.st_dev):\(st.st_ino)"
    #expect(platform.writesToJournal(environment: ["JOURNAL_STREAM": named]))
    #expect(!platform.writesToJournal(environment: ["JOURNAL_STREAM": "1:1"]))
    #expect(!platform.writesToJournal(environment: [:]))
  }

  @Test func aTransientTimerIsOneSystemdRunCommandLine() {
    let timer = TransientTimer(
      unit: "nudge-snooze-morning-1790000000", description: "Nudge snoozed morning reminder",
      afterSeconds: 600, runtimeMaxSeconds: 7200,
      environment: ["TZ": "Europe/Berlin", "NUDGE_DB": "/home/a/n.sqlite3"],
      argv: ["/usr/bin/nudge", "notify", "morning", "--snoozed"])
    #expect(
      timer.commandLine(systemdRun: "/usr/bin/systemd-run") == [
        "/usr/bin/systemd-run", "--user", "--quiet", "--collect",
        "--unit=nudge-snooze-morning-1790000000", "--description=Nudge snoozed morning reminder",
        "--on-active=600s", "--timer-property=AccuracySec=1s", "--property=RuntimeMaxSec=7200s",
        "--setenv=NUDGE_DB=/home/a/n.sqlite3", "--setenv=TZ=Europe/Berlin", "--",
        "/usr/bin/nudge", "notify", "morning", "--snoozed",
      ])
  }

  @Test func aTransientTimerIsHandedToSystemdRunOnThePath() throws {
    let root = try directory()
    let bin = root + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    // records its arguments, one a line
    try executable(
      bin + "/systemd-run", "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done > \(root)/argv\n")
    let timer = TransientTimer(
      unit: "nudge-snooze-evening-1", description: "Nudge snoozed evening reminder",
      afterSeconds: 5, runtimeMaxSeconds: 60, environment: ["NUDGE_DB": "/x"],
      argv: ["/usr/bin/nudge", "notify", "evening", "--snoozed"])
    // no user manager: nothing is started
    #expect(!platform.startTransientTimer(timer, environment: ["PATH": bin]))
    #expect(!FileManager.default.fileExists(atPath: root + "/argv"))
    let environment = try managed(root, bin: bin)
    #expect(platform.startTransientTimer(timer, environment: environment))
    let recorded = try String(contentsOfFile: root + "/argv", encoding: .utf8)
    let expected = timer.commandLine(systemdRun: bin + "/systemd-run").dropFirst()
    #expect(recorded == expected.map { $0 + "\n" }.joined())
    // systemd-run refused it
    try executable(bin + "/systemd-run", "#!/bin/sh\nexit 1\n")
    #expect(!platform.startTransientTimer(timer, environment: environment))
  }

  @Test func aScopeStartedIsWaitedForUntilSystemdRunEndsOrExecs() throws {
    let root = try directory()
    let bin = root + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    let scope = TransientScope(
      unitPrefix: "nudge-open", description: "Nudge flow", argv: ["/usr/bin/xterm"])
    #expect(
      scope.commandLine(systemdRun: "/usr/bin/systemd-run", unit: "nudge-open-1-2") == [
        "/usr/bin/systemd-run", "--user", "--scope", "--quiet", "--collect",
        "--unit=nudge-open-1-2", "--description=Nudge flow", "--", "/usr/bin/xterm",
      ])
    let environment = try managed(root, bin: bin)
    // no systemd-run on the path
    #expect(!platform.startInScope(scope, environment: environment))
    #expect(!FileManager.default.fileExists(atPath: bin + "/systemd-run"))
    // a binary (its /proc exe stays systemd-run until it ends) that fails, then one that succeeds
    try copyProgram("/bin/false", to: bin + "/systemd-run")
    #expect(!platform.startInScope(scope, environment: environment))
    try copyProgram("/bin/true", to: bin + "/systemd-run")
    #expect(platform.startInScope(scope, environment: environment))
  }

  @Test func aDaemonIsSeenByTheLockItHoldsBesideItsDatabase() throws {
    let root = try directory()
    let database = root + "/nudge.sqlite3"
    // no lock file: no daemon (and looking creates nothing)
    #expect(!platform.daemonRuns(databasePath: database))
    #expect(!FileManager.default.fileExists(atPath: database + "-daemon"))
    // another process holds it (flock(1) on its descriptor, as the daemon does): seen; a
    // second daemon refused
    let holder = try Spawn.start(
      [
        "/bin/sh", "-c", "exec 9>\"$0\" && /usr/bin/flock --exclusive 9 && exec /bin/sleep 30",
        database + "-daemon",
      ], environment: [:])
    defer {
      kill(holder, SIGKILL)
      _ = Spawn.exitStatusIfFinished(holder)
    }
    var seen = false
    for _ in 0..<200 where !seen {
      seen = platform.daemonRuns(databasePath: database)
      if !seen { usleep(10_000) }
    }
    #expect(seen)
    #expect(!platform.holdDaemonLock(databasePath: database))
    // a daemon of another database is not this one's
    #expect(!platform.daemonRuns(databasePath: root + "/other.sqlite3"))
    // it ended: the kernel let go of its lock; this process takes it, then sees it held
    kill(holder, SIGKILL)
    for _ in 0..<200 where platform.daemonRuns(databasePath: database) { usleep(10_000) }
    #expect(!platform.daemonRuns(databasePath: database))
    #expect(platform.holdDaemonLock(databasePath: database))
    #expect(platform.daemonRuns(databasePath: database))
  }

  @Test func terminalsAreFoundFromTERMINALThenByNameEachProgramOnce() throws {
    let bin = try directory()
    #expect(platform.terminalCommands(running: ["nudge"], environment: ["PATH": bin]) == [])
    try executable(bin + "/xterm", "#!/bin/sh\n")
    #expect(
      platform.terminalCommands(running: ["nudge", "open"], environment: ["PATH": bin])
        == [["xterm", "-e", "nudge", "open"]])
    try executable(bin + "/kitty", "#!/bin/sh\n")
    #expect(
      platform.terminalCommands(running: ["nudge"], environment: ["PATH": bin])
        == [["kitty", "nudge"], ["xterm", "-e", "nudge"]])
    // x-terminal-emulator (tried first) is the xterm it points at: that program once
    try FileManager.default.createSymbolicLink(
      atPath: bin + "/x-terminal-emulator", withDestinationPath: bin + "/xterm")
    #expect(
      platform.terminalCommands(running: ["nudge"], environment: ["PATH": bin])
        == [["x-terminal-emulator", "-e", "nudge"], ["kitty", "nudge"]])
    #expect(
      platform.terminalCommands(
        running: ["nudge"], environment: ["PATH": bin, "TERMINAL": "kitty --single-instance"])
        == [
          ["kitty", "--single-instance", "-e", "nudge"], ["x-terminal-emulator", "-e", "nudge"],
        ])
    // a $TERMINAL that is not there is passed over
    #expect(
      platform.terminalCommands(running: ["nudge"], environment: ["PATH": bin, "TERMINAL": "nope"])
        == [["x-terminal-emulator", "-e", "nudge"], ["kitty", "nudge"]])
  }

  @Test func aTerminalThatFailsInItsFirstSecondIsReportedOneThatRunsOrHandsOffIsStarted() throws {
    let bin = try directory()
    let environment = ["PATH": bin + ":/usr/bin:/bin"]
    // konsole without its Wayland plugin: prints why and exits 1 at once
    try executable(
      bin + "/konsole", "#!/bin/sh\necho 'could not load the platform plugin' >&2\nexit 1\n")
    #expect(
      launch([bin + "/konsole", "-e", "true"], environment) == .failed("konsole exited 1"))
    // gnome-terminal hands the window to its server and ends at once, well
    try executable(bin + "/gnome-terminal", "#!/bin/sh\nexit 0\n")
    #expect(
      launch([bin + "/gnome-terminal", "--", "true"], environment) == .started)
    // a terminal that is still running after its first second is taken as open
    let marker = bin + "/ran"
    try executable(bin + "/xterm", "#!/bin/sh\necho \"$@\" > \(marker)\nsleep 3\n")
    #expect(launch([bin + "/xterm", "-e", "nudge"], environment) == .started)
    // it ran (and still runs): the first line it wrote is there when the launch returns
    #expect(try String(contentsOfFile: marker, encoding: .utf8) == "-e nudge\n")
    // a terminal that cannot be started at all
    guard
      case .failed(let reason) = platform.launchTerminal(
        [bin + "/missing", "-e", "nudge"], environment: environment)
    else {
      Issue.record("a missing terminal was taken as started")
      return
    }
    #expect(reason.contains("missing") && !reason.hasSuffix("."))
  }
}

/// Blocks until child `pid` has exited, leaving it to be reaped (waitid with WNOWAIT): the
/// event, not a sleep.
private func waitUntilExited(_ pid: pid_t) {
  var info = siginfo_t()
  while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
}
