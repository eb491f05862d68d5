import Foundation
import Testing

/// `nudge plan`: the built-in plans and the person's plan files listed, shown and checked; a
/// broken file set aside with its line, never stopping the others.
@Suite struct PlanTests {
  static let reading = """
    format = 1
    [plan]
    name = "reading"
    title = "Reading"
    [[flow]]
    id = "read"
    word = "read"
    title = "Reading"
    slot = "evening"
    first = "First pages"
    [[flow.question]]
    id = "pages"
    ask = "How many pages?"
    kind = "number"
    unit = "pages"
    required = true

    """

  func folder(_ nudge: Nudge) throws -> String {
    let folder = nudge.home + "/.config/nudge/plans"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    // the person's alone whatever the umask (a plans folder others may write to is not read)
    #expect(chmod(folder, 0o755) == 0)
    return folder
  }

  @Test func theBuiltInPlansAndAPersonsFileAreListedAndABrokenOneSetAside() throws {
    let nudge = Nudge()
    let folder = try folder(nudge)
    try Self.reading.write(toFile: folder + "/reading.plan", atomically: true, encoding: .utf8)
    try Self.reading.replacing("word = \"read\"", with: "word = \"prep\"")
      .replacing("name = \"reading\"", with: "name = \"other\"")
      .write(toFile: folder + "/clash.plan", atomically: true, encoding: .utf8)
    let listed = try nudge.run(["plan", "list", "--json"])
    #expect(listed.status == 0, "\(listed.stderr)")
    let plans = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
    #expect(plans.map { $0["name"] as? String } == ["coach", "sleep", "reading"])
    #expect(plans.map { $0["on"] as? Bool } == [true, false, false])
    let words = (plans[1]["flows"] as? [[String: Any]])?.map { $0["word"] as? String }
    #expect(words == ["sleep", "challenge"])
    #expect(
      listed.stderr
        == "nudge: \(folder)/clash.plan:7: 'prep' is taken (a nudge command, or a flow of another plan); choose another word (\"word = ...\") (set aside)\n"
    )
    // checking a file of the folder, however its path is spelt, does not clash with itself
    let again = try nudge.run(["plan", "check", folder + "/./reading.plan"])
    #expect(again.status == 0, "\(again.stderr)")
    let shown = try nudge.run(["plan", "show", "Reading"])
    #expect(shown.status == 0 && shown.stdout.contains("nudge read  Reading"), "\(shown.stdout)")
    #expect(
      shown.stdout.contains("* pages            How many pages? [a number 0-1000000 (pages)]"))
  }

  @Test func theCompletionsAskForThePlansFlowsWhichPlanWordsLists() throws {
    let nudge = Nudge()
    let folder = try folder(nudge)
    try Self.reading.write(toFile: folder + "/reading.plan", atomically: true, encoding: .utf8)
    try "format = 1\n[plan\n".write(
      toFile: folder + "/broken.plan", atomically: true, encoding: .utf8)
    // the flows plans add, not the coach's (commands already); a broken file says nothing
    let words = try nudge.run(["plan", "words"])
    #expect(words.status == 0 && words.stderr.isEmpty, "\(words.stderr)")
    #expect(words.stdout == "sleep\tLast night\nchallenge\tTonight's challenge\nread\tReading\n")
    // hidden from the help a person reads
    #expect(!(try nudge.run(["plan", "--help"])).stdout.contains("words"))
    for shell in ["bash", "zsh", "fish"] {
      for arguments in [
        ["--generate-completion-script", shell], ["--generate-completion-script=\(shell)"],
      ] {
        let script = try nudge.run(arguments).stdout
        #expect(script.contains("command nudge plan words"), "\(shell)")
        #expect(script.contains("first-prep"), "\(shell): argument-parser's script kept")
      }
    }
  }

  @Test func checkSaysOkOrTheLineAndWhatIsAllowed() throws {
    let nudge = Nudge()
    let file = nudge.home + "/reading.plan"
    try Self.reading.write(toFile: file, atomically: true, encoding: .utf8)
    let ok = try nudge.run(["plan", "check", file])
    #expect(ok.status == 0)
    #expect(ok.stdout == "\(file): plan 'reading', 1 flow (read), 1 question: ok\n")
    try Self.reading.replacing("kind = \"number\"", with: "kind = \"slider\"")
      .write(toFile: file, atomically: true, encoding: .utf8)
    let broken = try nudge.run(["plan", "check", file])
    #expect(broken.status == 65)
    #expect(
      broken.stderr
        == "nudge: \(file):14: kind 'slider' is not one of yes-no, one-of, several-of, text, number, time, challenge\n"
    )
    // a name a built-in plan has, and a file that is no file
    try Self.reading.replacing("name = \"reading\"", with: "name = \"sleep\"")
      .write(toFile: file, atomically: true, encoding: .utf8)
    #expect(
      try nudge.run(["plan", "check", file]).stderr.contains(
        "a plan named 'sleep' is already there"))
    let device = try nudge.run(["plan", "check", "/dev/zero"])
    #expect(device.status == 66 && device.stderr.hasPrefix("nudge: cannot read /dev/zero"))
  }

  // MARK: - Issue 56: the plans folder held to the sync folder's rules

  /// What `plan list --json` lists by name.
  func listed(_ nudge: Nudge) throws -> [String] {
    let result = try nudge.run(["plan", "list", "--json"])
    let plans = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
    return (plans ?? []).compactMap { $0["name"] as? String }
  }

  @Test func aPlansFolderOthersMayWriteToHoldsNoPlanAndDoctorSaysSo() throws {
    let nudge = Nudge()
    let folder = try folder(nudge)
    try Self.reading.write(toFile: folder + "/reading.plan", atomically: true, encoding: .utf8)
    #expect(try listed(nudge).contains("reading"))
    #expect(chmod(folder, 0o777) == 0)
    #expect(!(try listed(nudge).contains("reading")))
    let said = try nudge.run(["plan", "list"])
    #expect(said.stderr.contains("not read: the plans folder"), "\(said.stderr)")
    #expect(said.stderr.contains("mode 777"), "\(said.stderr)")
    let doctor = try nudge.run(["doctor"])
    #expect(
      doctor.stdout.contains("plans:") && doctor.stdout.contains("such plans are not read"),
      "\(doctor.stdout)")
    #expect(chmod(folder, 0o755) == 0)
    #expect(try listed(nudge).contains("reading"))
  }

  @Test func aPlanFileOthersMayWriteToOrAnotherUserOwnsIsNotRead() throws {
    let nudge = Nudge()
    let folder = try folder(nudge)
    let path = folder + "/reading.plan"
    try Self.reading.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(chmod(path, 0o666) == 0)
    #expect(!(try listed(nudge).contains("reading")))
    #expect(try nudge.run(["plan", "check", path]).status == 66)
    #expect(chmod(path, 0o644) == 0)
    #expect(try listed(nudge).contains("reading"))
  }

  /// Another user's plan file (nobody's) is not read: only root may give a file away (CI
  /// runs as root).
  @Test(.enabled(if: getuid() == 0, "giving a file to another user needs root"))
  func aPlanFileAnotherUserOwnsIsNotRead() throws {
    let nudge = Nudge()
    let path = try folder(nudge) + "/reading.plan"
    try Self.reading.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(chmod(path, 0o644) == 0)
    #expect(try listed(nudge).contains("reading"))
    #expect(chown(path, 65534, 65534) == 0)
    #expect(!(try listed(nudge).contains("reading")))
    #expect(try nudge.run(["plan", "list"]).stderr.contains("belongs to another user"))
  }

  @Test func aPlanFileThatIsNotUTF8IsRefusedWithTheByteAndABOMIsRead() throws {
    let nudge = Nudge()
    let folder = try folder(nudge)
    let path = folder + "/reading.plan"
    let bad = Array("# caf".utf8) + [0xE9] + Array("\n".utf8) + Array(Self.reading.utf8)
    try Data(bad).write(to: URL(fileURLWithPath: path))
    let checked = try nudge.run(["plan", "check", path])
    #expect(checked.status == 66)
    #expect(checked.stderr.contains("byte 5 is not UTF-8"), "\(checked.stderr)")
    #expect(!(try listed(nudge).contains("reading")))
    try Data([0xEF, 0xBB, 0xBF] + Array(Self.reading.utf8)).write(to: URL(fileURLWithPath: path))
    #expect(try nudge.run(["plan", "check", path]).status == 0)
    #expect(try listed(nudge).contains("reading"))
    // larger than a plan may be: said as such, not as an unreadable file
    try Data(Array(Self.reading.utf8) + Array(repeating: 0x23, count: 70_000)).write(
      to: URL(fileURLWithPath: path))
    let big = try nudge.run(["plan", "check", path])
    #expect(big.status == 66 && big.stderr.contains("larger than 64 KiB"), "\(big.stderr)")
  }

  /// A flow whose plan file was set aside says where and why (it read "'read' is not a
  /// command": issue 56, item 9).
  @Test func aFlowOfASetAsidePlanSaysWhereAndWhy() throws {
    let nudge = Nudge()
    let folder = try folder(nudge)
    try Self.reading.replacing("kind = \"number\"", with: "kind = \"numbr\"")
      .write(toFile: folder + "/reading.plan", atomically: true, encoding: .utf8)
    let ran = try nudge.run(["read"])
    #expect(ran.status == 64)
    #expect(
      ran.stderr.contains(
        "'read' is a flow of the plan file \(folder)/reading.plan, which was set aside"),
      "\(ran.stderr)")
    #expect(ran.stderr.contains("nudge plan check"))
    #expect(ran.stderr.split(separator: "\n").count == 1)
    // a word no file names is still no command
    #expect(try nudge.run(["frobnicate"]).stderr.contains("'frobnicate' is not a command"))
  }
}
