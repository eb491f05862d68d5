import Foundation
import NudgeCore
import Testing

@testable import NudgeStore

@Suite struct LoopBackupTests {
  typealias Habit = LoopBackup.Habit
  typealias Mark = LoopBackup.Mark

  func tempDir() -> String {
    let dir = NSTemporaryDirectory() + "nudge-loop-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
  }

  /// Writes a Loop backup with Loop's own schema (scripts/nudgetest/loop_backup.py).
  func fixture(_ arguments: [String] = []) throws -> String {
    var root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    root = root.deletingLastPathComponent().deletingLastPathComponent()
    let path = tempDir() + "/Loop Habits Backup.db"
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    python.arguments =
      ["python3", root.appendingPathComponent("scripts/nudgetest/loop_backup.py").path, path]
      + arguments
    try python.run()
    python.waitUntilExit()
    try #require(python.terminationStatus == 0)
    return path
  }

  /// Changes a fixture with plain SQL (a hostile or damaged backup).
  func tamper(_ path: String, _ sql: String) throws {
    try SQLiteConnection(path: path).execute(sql)
  }

  func day(_ text: String) -> Day { Day(text)! }

  func refusal(_ path: String) -> String? {
    do {
      _ = try LoopBackup.read(path: path)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func readsEveryFieldOfLoopsOwnSchema() throws {
    let path = try fixture()
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let backup = try LoopBackup.read(path: path)
    #expect(backup.habits.map(\.name) == ["Meditate", "Gym", "Read", "Floss", "Run"])
    let (meditate, gym, read, floss, run) = (
      backup.habits[0], backup.habits[1], backup.habits[2], backup.habits[3], backup.habits[4]
    )
    #expect(
      meditate
        == Habit(
          name: "Meditate", question: "Did you meditate today?", description: "10 minutes",
          numerator: 1, denominator: 1, position: 0,
          // Loop's bits 2, 4 and 6 (Monday, Wednesday, Friday counted from Saturday)
          reminder: .init(hour: 7, minute: 30, weekdays: [1, 3, 5]),
          marks: [
            Mark(day: day("2026-11-01"), kind: .done(1)),
            Mark(day: day("2026-11-02"), kind: .done(1)),
            Mark(day: day("2026-11-03"), kind: .done(1)),
            // 11-04 NO is the person's no; 11-05 UNKNOWN is no mark
            Mark(day: day("2026-11-04"), kind: .failed),
            Mark(day: day("2026-11-06"), kind: .done(1)),
          ]))
    #expect(
      gym
        == Habit(
          name: "Gym", question: "Did you go to the gym?", numerator: 3, denominator: 7,
          position: 1,
          // 11-03 is YES_AUTO, Loop's own fill-in: not a check
          marks: [
            Mark(day: day("2026-11-02"), kind: .done(1)),
            Mark(day: day("2026-11-04"), kind: .done(1)),
            Mark(day: day("2026-11-06"), kind: .done(1)),
          ]))
    #expect(
      read
        == Habit(
          name: "Read", question: "How many pages did you read?", isMeasurable: true,
          target: 20, unit: "pages", position: 2,
          reminder: .init(hour: 21, minute: 0, weekdays: [0, 1, 2, 3, 4, 5, 6]),
          marks: [
            Mark(day: day("2026-11-01"), kind: .done(20)),
            Mark(day: day("2026-11-02"), kind: .done(12.5)),
            Mark(day: day("2026-11-03"), kind: .done(0)),
            Mark(day: day("2026-11-04"), kind: .skipped),
            Mark(day: day("2026-11-06"), kind: .done(31.25)),
          ]))
    #expect(
      floss
        == Habit(
          name: "Floss", question: "Did you floss?", archived: true, position: 3,
          marks: [Mark(day: day("2000-01-01"), kind: .done(1))]))
    #expect(
      run
        == Habit(
          name: "Run", question: "Did you run?", position: 4,
          marks: [
            Mark(day: day("2026-11-01"), kind: .done(1)),
            Mark(day: day("2026-11-02"), kind: .skipped),
            Mark(day: day("2026-11-03"), kind: .done(1)),
          ]))
    // read, never written: the same bytes and no journal beside it
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    let siblings = try FileManager.default.contentsOfDirectory(
      atPath: (path as NSString).deletingLastPathComponent)
    #expect(siblings == ["Loop Habits Backup.db"])
  }

  @Test func readsABackupWithoutHabits() throws {
    #expect(try LoopBackup.read(path: try fixture(["--habits", "none"])).habits == [])
  }

  @Test func readsAnOldSchemaWithItsMigrationsDefaults() throws {
    // the table shapes of a version 12 file (uhabits-core/assets/test/loop.db)
    let path = tempDir() + "/old.db"
    try PlainSQLite.make(
      path: path,
      sql: """
        CREATE TABLE Habits (Id INTEGER PRIMARY KEY AUTOINCREMENT, archived INTEGER, color INTEGER, description TEXT, freq_den INTEGER, freq_num INTEGER, highlight INTEGER, name TEXT, position INTEGER, reminder_days INTEGER, reminder_hour INTEGER, reminder_min INTEGER);
        CREATE TABLE Repetitions (Id INTEGER PRIMARY KEY AUTOINCREMENT, habit INTEGER REFERENCES Habits(Id), timestamp INTEGER);
        INSERT INTO Habits VALUES (15, 0, -16742021, 'Up by 7?', 7, 3, 0, 'Wake up early', 0, 127, 6, 45);
        INSERT INTO Repetitions VALUES (306, 15, 1451606400000);
        PRAGMA user_version = 12;
        """)
    let habit = try #require(try LoopBackup.read(path: path).habits.first)
    #expect(
      habit
        == Habit(
          name: "Wake up early", question: "Up by 7?", numerator: 3, denominator: 7,
          reminder: .init(hour: 6, minute: 45, weekdays: Set(0...6)),
          marks: [Mark(day: day("2016-01-01"), kind: .done(1))]))
  }

  @Test func keepsControlCharactersAndTheLastRowOfADay() throws {
    let path = try fixture()
    // Run (habit 5): its 11-02 skip moved an hour past midnight, then a later NO row on
    // 11-02 two hours past it; Loop reads both as 11-02 and keeps the row added last
    try tamper(
      path,
      """
      UPDATE Habits SET name = 'Med' || char(27) || '[31mitate' WHERE name = 'Meditate';
      UPDATE Repetitions SET timestamp = timestamp + 3600000 WHERE habit = 5 AND value = 3;
      INSERT INTO Repetitions (habit, timestamp, value) VALUES (5, 1793577600000 + 7200000, 0);
      """)
    let backup = try LoopBackup.read(path: path)
    #expect(backup.habits[0].name == "Med\u{1B}[31mitate")
    #expect(
      backup.habits[4].marks == [
        Mark(day: day("2026-11-01"), kind: .done(1)), Mark(day: day("2026-11-02"), kind: .failed),
        Mark(day: day("2026-11-03"), kind: .done(1)),
      ])
  }

  @Test func readsTheNotesLoop21Keeps() throws {
    let path = try fixture()
    try tamper(
      path,
      """
      UPDATE Repetitions SET notes = 'on the train, "finally"' WHERE habit = 1 AND timestamp =
        (SELECT min(timestamp) FROM Repetitions WHERE habit = 1);
      """)
    let marks = try LoopBackup.read(path: path).habits[0].marks
    #expect(marks.first?.note == "on the train, \"finally\"")
    // an empty note (what Loop writes for none) is none
    #expect(marks.dropFirst().allSatisfy { $0.note == nil })
  }

  @Test func refusesWhatIsNotALoopBackup() throws {
    let dir = tempDir()
    // missing
    #expect(refusal(dir + "/nothing.db")?.contains("No such file") == true)
    // a directory
    #expect(refusal(dir)?.contains("is not a file") == true)
    // empty
    FileManager.default.createFile(atPath: dir + "/empty.db", contents: Data())
    #expect(refusal(dir + "/empty.db")?.contains("is empty") == true)
    // not SQLite
    FileManager.default.createFile(
      atPath: dir + "/notes.txt", contents: Data("buy milk\n".utf8))
    #expect(refusal(dir + "/notes.txt")?.contains("is not a SQLite database") == true)
    // SQLite without Habits
    try PlainSQLite.make(
      path: dir + "/other.db", sql: "CREATE TABLE t(x); INSERT INTO t VALUES (1);")
    #expect(refusal(dir + "/other.db")?.contains("has no Habits table") == true)
    // a SQLite header over garbage
    var damaged = Data("SQLite format 3\0".utf8)
    damaged.append(Data((0..<4080).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
    FileManager.default.createFile(atPath: dir + "/damaged.db", contents: damaged)
    #expect(refusal(dir + "/damaged.db") != nil)
    // a newer Loop
    let newer = refusal(try fixture(["--user-version", "26"]))
    #expect(newer?.contains("newer Loop (schema 26; Nudge knows up to 25)") == true)
    // every message says what Nudge expects
    for path in [dir + "/nothing.db", dir + "/empty.db", dir + "/notes.txt", dir + "/other.db"] {
      #expect(refusal(path)?.contains("Export full backup") == true)
      #expect(refusal(path)?.contains("\n") == false)
    }
  }

  @Test func refusesHostileValuesNamingTheHabit() throws {
    func refused(_ sql: String) throws -> String {
      let path = try fixture()
      try tamper(path, sql)
      return refusal(path) ?? "read"
    }
    let long = try refused("UPDATE Habits SET question = printf('%.2000c', 'x') WHERE name = 'Gym'")
    #expect(long.contains("question of habit \"Gym\" is longer than 1000 characters"))
    let early = try refused("UPDATE Repetitions SET timestamp = 631152000000 WHERE id = 1")  // 1990
    #expect(early.contains("habit \"Meditate\" has a repetition on a day 1990-01-01"))
    let late = try refused("UPDATE Repetitions SET timestamp = 4102444800000 WHERE id = 1")  // 2100
    #expect(late.contains("2100-01-01"))
    let value = try refused("UPDATE Repetitions SET value = 7 WHERE habit = 2")
    #expect(value.contains("habit \"Gym\" has the value 7"))
    let negative = try refused("UPDATE Repetitions SET value = -5 WHERE habit = 3")
    #expect(negative.contains("habit \"Read\" has the value -5"))
    let frequency = try refused("UPDATE Habits SET freq_den = 0 WHERE name = 'Gym'")
    #expect(frequency.contains("habit \"Gym\" has the frequency 3/0"))
    let type = try refused("UPDATE Habits SET type = 2 WHERE name = 'Run'")
    #expect(type.contains("habit \"Run\" has the type 2"))
    let reminder = try refused("UPDATE Habits SET reminder_hour = 24 WHERE name = 'Meditate'")
    #expect(reminder.contains("habit \"Meditate\" has a reminder at 24:30"))
    let target = try refused("UPDATE Habits SET target_value = -1 WHERE name = 'Read'")
    #expect(target.contains("habit \"Read\" has the target -1.0"))
    let shown = try refused(
      "UPDATE Habits SET name = 'a' || char(10) || 'b', freq_num = -1 WHERE name = 'Gym'")
    #expect(shown.contains("habit \"a?b\"") && !shown.contains("\n"))
  }

  /// Past what Nudge keeps (`Habit.maxCount` habits, `Habit.maxDaysInAll` days): refused
  /// before it is read (it was 1,000 × 1,000,000, whose export import then refused: issue 56).
  @Test func refusesTooManyHabitsOrRepetitions() throws {
    let habits = try fixture(["--habits", "none"])
    try tamper(
      habits,
      """
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 101)
      INSERT INTO Habits (name, freq_num, freq_den) SELECT 'h' || i, 1, 1 FROM n;
      """)
    #expect(refusal(habits)?.contains("101 habits, more than the 100") == true)
    let repetitions = try fixture()
    try tamper(
      repetitions,
      """
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 250000)
      INSERT INTO Repetitions (habit, timestamp, value) SELECT 4, i * 86400000 + 1, 2 FROM n;
      """)
    #expect(refusal(repetitions)?.contains("250020 repetitions, more than the 250000") == true)
  }

  /// A name with a NUL inside is read whole, so it is refused as a name, never cut short and
  /// merged into a habit of the shorter name (issue 56, item 7: `Med\0itate` became `Med`).
  @Test func aNameWithANulInsideIsReadWhole() throws {
    let path = try fixture()
    try tamper(path, "UPDATE Habits SET name = 'Med' || char(0) || 'itate' WHERE name = 'Gym'")
    let backup = try LoopBackup.read(path: path, today: Day("2026-11-20")!)
    #expect(
      backup.habits.contains { $0.name == "Med\u{0}itate" },
      "\(backup.habits.map { Array($0.name.unicodeScalars.map(\.value)) })")
    #expect(!backup.habits.contains { $0.name == "Med" })
  }

  /// A backup without Loop's `position` column is read in file order, not refused with a raw
  /// SQLite error (issue 56, item 9).
  @Test func aBackupWithoutPositionsIsRead() throws {
    let path = try fixture()
    try tamper(path, "ALTER TABLE Habits DROP COLUMN position")
    let backup = try LoopBackup.read(path: path, today: Day("2026-11-20")!)
    #expect(backup.habits.count == 5)
  }

  /// A database in WAL mode whose tables are still in its log: said so, with what to do,
  /// not "it has no Habits table" (issue 56, item 9).
  @Test func tablesOnlyInTheWriteAheadLogAreSaidSo() throws {
    let path = tempDir() + "/Loop Habits Backup.db"
    let writer = try SQLiteConnection(path: path, create: true)
    try writer.execute("PRAGMA journal_mode = WAL")
    try writer.execute("PRAGMA wal_autocheckpoint = 0")
    try writer.execute("CREATE TABLE Habits (id INTEGER PRIMARY KEY, name TEXT)")
    try writer.execute("CREATE TABLE Repetitions (id INTEGER PRIMARY KEY, habit INTEGER)")
    // the writer stays open: its log is not folded into the file
    #expect(throws: LoopBackupError.self) {
      try LoopBackup.read(path: path, today: Day("2026-11-20")!)
    }
    do {
      _ = try LoopBackup.read(path: path, today: Day("2026-11-20")!)
    } catch {
      #expect(
        error.message.contains("-wal beside it, which Nudge does not read"), "\(error.message)")
    }
    withExtendedLifetime(writer) {}
  }
}
