import NudgeCore
import Testing

@testable import NudgeStore

/// Loop's habits mapped to Nudge's: held to what `habit add` takes, days after today left out,
/// a reminder on no weekday none, and a habit already here reaching back to the file's days.
@Suite struct LoopImportTests {
  let today = Day("2026-11-20")!

  func loop(_ name: String, marks: [Int] = [], reminder: LoopBackup.Reminder? = nil)
    -> LoopBackup.Habit
  {
    LoopBackup.Habit(
      name: name, question: "Did you \(name)?\nA second line", reminder: reminder,
      marks: marks.map { LoopBackup.Mark(day: today.adding(days: $0), kind: .done(1)) })
  }

  @Test func namesAreHeldToHabitAddAndTheRestIsMadeSafe() throws {
    #expect(throws: InputError.self) {
      try LoopImport.of(LoopBackup(habits: [loop("a\u{1B}[2J")]), today: today, reserved: [])
    }
    #expect(throws: InputError.self) {
      try LoopImport.of(LoopBackup(habits: [loop("-rf")]), today: today, reserved: [])
    }
    let mapped = try LoopImport.of(
      LoopBackup(habits: [
        loop("Run", marks: [-2, -1, 0, 1, 30], reminder: .init(hour: 7, minute: 5, weekdays: []))
      ]), today: today, reserved: [])
    let (habit, checks) = try #require(mapped.habits.first)
    // a two-line question is not one: the default stands in
    #expect(habit.question == "Run today?")
    #expect(habit.at == nil)
    #expect(checks.map(\.day) == [-2, -1, 0].map { today.adding(days: $0) })
    #expect(mapped.notes.contains { $0.contains("2 of 'Run''s days are after today") })
  }

  /// Nothing is changed silently (issue 56, item 7): each value brought near is in the notes.
  @Test func everyValueBroughtNearIsSaid() throws {
    let mapped = try LoopImport.of(
      LoopBackup(habits: [
        LoopBackup.Habit(name: "Rare", numerator: 1, denominator: 10_000),
        LoopBackup.Habit(name: "Often", numerator: 10_000, denominator: 1),
        LoopBackup.Habit(name: "Month", numerator: 30, denominator: 30 + 1),
        LoopBackup.Habit(
          name: "Huge", isMeasurable: true, target: 1e9, unit: "steps\u{7}",
          marks: [LoopBackup.Mark(day: today, kind: .done(5e6))]),
        LoopBackup.Habit(name: "Asked", question: "Why\u{1B}[2J?"),
      ]), today: today, reserved: [])
    let notes = mapped.notes.joined(separator: "\n")
    for said in [
      "'Rare' is once in 10000 days in Loop; Nudge keeps it as every 365 days",
      "'Often' is 10000 times in 1 day in Loop; Nudge keeps it as daily",
      "'Month' is 30 times in 31 days in Loop; Nudge keeps it as 28/month",
      "'Huge''s target is more than the 1000000 a day Nudge keeps",
      "1 of 'Huge''s amounts were outside 0 to 1000000",
      "'Huge''s unit was left out",
      "'Asked''s question was left out",
    ] {
      #expect(notes.contains(said), "\(said) — notes: \(notes)")
    }
    // what is exact is not noted
    let exact = try LoopImport.of(
      LoopBackup(habits: [LoopBackup.Habit(name: "Walk", numerator: 3, denominator: 7)]),
      today: today, reserved: [])
    #expect(exact.notes.isEmpty, "\(exact.notes)")
  }

  @Test func aHabitHereAlreadyReachesBackToTheFilesDays() throws {
    let db = try AppDatabase.inMemory()
    let added = try db.addHabit(
      Habit(name: "run", since: today), madeOn: today, at: "2026-11-20T08:00:00Z")
    let mapped = try LoopImport.of(
      LoopBackup(habits: [loop("Run", marks: [-10, -9])]), today: today, reserved: [])
    let count = try db.importHabits(mapped.habits, at: "2026-11-20T12:00:00Z")
    #expect(count.sameHabits == 1)
    #expect(count.newChecks == 2)
    let habit = try #require(try db.habits().first { $0.id == added.id })
    #expect(habit.since == today.adding(days: -10))
    #expect(
      HabitProgress(habit, checks: try db.habitChecks(habit.id), paused: [], today: today).best == 2
    )
  }

  /// The habit limits refuse growth past them, never a database that is past them already
  /// (an older Nudge took 1,000 Loop habits), and a removed habit no longer counts.
  @Test func theLimitsRefuseGrowthOnly() throws {
    let db = try AppDatabase.inMemory()
    let at = "2026-11-20T08:00:00Z"
    var habits: [Habit] = []
    for n in 1...Habit.maxCount {
      habits.append(try db.addHabit(Habit(name: "h\(n)", since: today), madeOn: today, at: at))
    }
    #expect(throws: StoreError.self) {
      try db.addHabit(Habit(name: "one more", since: today), madeOn: today, at: at)
    }
    // removed the same day, another may be added
    try db.removeHabit(habits[0], madeOn: today, at: at)
    #expect(throws: Never.self) {
      try db.addHabit(Habit(name: "instead", since: today), madeOn: today, at: at)
    }
    // past the limit already (written past every door): days are still recorded
    try db.write {
      try $0.execute(
        "INSERT INTO habit (name, question, every, since) VALUES ('extra', 'q', 'daily', '2026-11-20')"
      )
    }
    #expect(throws: Never.self) {
      try db.putHabitCheck(
        HabitCheck(day: today, done: true, savedAt: at), habit: habits[1].id, madeOn: today, at: at)
    }
  }
}
