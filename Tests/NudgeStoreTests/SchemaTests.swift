import Foundation
import NudgeCore
import Testing

@testable import NudgeStore

/// Schema 6: what version 5 kept as strings in the key-value `state` table moves to tables of
/// its own, and reads back the same.
@Suite struct SchemaTests {
  func tempPath() -> String {
    let dir = NSTemporaryDirectory() + "nudge-schema-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir + "/nudge.sqlite3"
  }

  /// A version-5 file with `state` rows as Nudge 5 wrote them.
  func version5File(state: [String: String]) throws -> String {
    let path = tempPath()
    let db = try SQLiteConnection(path: path, create: true)
    try AppDatabase.migrate(db, upTo: 5)
    for (key, value) in state {
      try db.execute("INSERT INTO state (key, value) VALUES (?, ?)", [.text(key), .text(value)])
    }
    #expect(try db.integer("PRAGMA user_version") == 5)
    return path
  }

  func tableExists(_ db: AppDatabase, _ name: String) throws -> Bool {
    try db.read { conn in
      try conn.integer("SELECT count(*) FROM sqlite_master WHERE name = ?", [.text(name)]) == 1
    }
  }

  @Test func version8sFlowTablesBecomeOneTableOfAnswersReadBackTheSame() throws {
    // Given a version-8 file with a day of each coach flow (an unanswered check-in question,
    // a prep item left undone, an "other" challenge), two help notes and a sleep entry
    let path = tempPath()
    let old = try SQLiteConnection(path: path, create: true)
    try AppDatabase.migrate(old, upTo: 8)
    try old.execute(
      """
      INSERT INTO prep VALUES ('2026-11-18', 1, 0, 1, 1, NULL, '2026-11-18T21:30:00+01:00');
      INSERT INTO prep VALUES ('2026-11-19', 0, 0, 0, 0, 'soup', '2026-11-19T21:30:00+01:00');
      INSERT INTO review VALUES ('2026-11-19', 'energy', 'other', 'office cake', 'fruit',
        'eat fruit', NULL, '2026-11-19T07:00:00+01:00');
      INSERT INTO checkin VALUES ('2026-11-19', 0, NULL, 'late meeting', '2026-11-19T21:00:00+01:00');
      INSERT INTO help_note VALUES ('n2', '2026-11-19', 'habit', NULL, NULL, '2026-11-19T16:00:00+01:00');
      INSERT INTO help_note VALUES ('n1', '2026-11-19', 'stress', 'deadline', 'breathing 2:00',
        '2026-11-19T15:00:00+01:00');
      INSERT INTO flow_entry VALUES ('sleep', '2026-11-19', '{"bedtime":"23:10","rested":"4"}',
        '2026-11-19T07:10:00+01:00');
      """)
    // When it is opened by today's Nudge
    let db = try AppDatabase.open(path: path)
    // Then every entry reads back as it was, from one table
    let day = Day("2026-11-19")!
    #expect(
      try db.prep(on: Day("2026-11-18")!)
        == PrepEntry(
          day: Day("2026-11-18")!, stickyNotes: true, water: true, breakfast: true,
          savedAt: "2026-11-18T21:30:00+01:00"))
    #expect(
      try db.prep(on: day)
        == PrepEntry(day: day, other: "soup", savedAt: "2026-11-19T21:30:00+01:00"))
    #expect(
      try db.review(on: day)
        == ReviewEntry(
          day: day, why: "energy", challenge: .other, challengeOther: "office cake", swap: "fruit",
          commitTo: "eat fruit", savedAt: "2026-11-19T07:00:00+01:00"))
    #expect(
      try db.checkin(on: day)
        == CheckinEntry(
          day: day, followed: false, blocker: "late meeting", savedAt: "2026-11-19T21:00:00+01:00"))
    #expect(
      try db.helpNotes(from: day, through: day) == [
        HelpNote(
          id: "n1", day: day, category: .stress, note: "deadline", coach: "breathing 2:00",
          at: "2026-11-19T15:00:00+01:00"),
        HelpNote(
          id: "n2", day: day, category: .habit, note: nil, at: "2026-11-19T16:00:00+01:00"),
      ])
    #expect(
      try db.answeredEntries(from: day, through: day) == [
        AnsweredEntry(
          flow: "sleep", day: day,
          answers: FlowAnswers(values: ["bedtime": "23:10", "rested": "4"]),
          savedAt: "2026-11-19T07:10:00+01:00")
      ])
    #expect(try db.doneFlowCount(on: day) == 6)
    for table in ["prep", "review", "checkin", "help_note"] {
      #expect(try !tableExists(db, table), "\(table) is gone")
    }
  }

  @Test func version5StateRowsMoveToTheirTablesAndReadBackTheSame() throws {
    // Given a version-5 file with snoozes, triggers, the reward draw's memory and a said note
    let last = StoredCelebration(
      number: 6, celebration: Celebration(tier: .spark, message: "Nice", achievements: [.firstPrep])
    )
    let path = try version5File(state: [
      "snooze.evening": "1000 400", "snooze.morning": "2000 -1", "snooze.midday": "soon",
      "trigger.morning": "1763532000", "trigger.evening": "yesterday",
      "reward.draws": "7", "reward.recent-messages": #"["Nice","Good"]"#,
      "reward.last-message": "Nice",
      "reward.last-celebration": String(decoding: try NudgeJSON.encode(last), as: UTF8.self),
      "said.no-systemd": "1",
    ])
    // When this Nudge opens it
    let db = try AppDatabase.open(path: path)
    // Then everything reads back as Nudge 5 read it (unreadable strings were ignored then too)
    #expect(
      try db.snoozes() == [
        Snooze(slot: .morning, due: 2000, elapse: nil),
        Snooze(slot: .evening, due: 1000, elapse: 400),
      ])
    #expect(try db.lastTrigger(.morning) == 1_763_532_000)
    #expect(try db.lastTrigger(.evening) == nil)
    #expect(try db.lastCelebration() == last)
    #expect(try db.firstTime("no-systemd") == false)
    #expect(try db.firstTime("something new") == true)
    // the next draw is number 7 and knows the recent messages
    let seen = try db.celebrationsDrawn()
    #expect(seen.recentMessages == ["Nice", "Good"] && seen.count == 7)
    let drawn = StoredCelebration(
      number: seen.count, celebration: Celebration(tier: .quiet, message: "Well done"))
    try db.rememberCelebration(drawn, keepingRecent: 10)
    #expect(try db.lastCelebration() == drawn)
    #expect(try db.celebrationsDrawn().count == 8)
    #expect(try db.celebrationsDrawn().recentMessages == ["Well done", "Nice", "Good"])
    // and the key-value table is gone, its rows with it
    #expect(try !tableExists(db, "state"))
    #expect(try db.read { try $0.integer("PRAGMA user_version") } == AppDatabase.schemaVersion)
    #expect(try db.integrityCheck() == "ok")
  }

  @Test func aVersion5FileWithOnlyTheOldestRewardKeyKeepsItsLastMessage() throws {
    // Given a file from before the recent-messages list: only the last message and no count
    let path = try version5File(state: ["reward.last-message": "Keep going"])
    let db = try AppDatabase.open(path: path)
    let seen = try db.celebrationsDrawn()
    #expect(seen.recentMessages == ["Keep going"] && seen.count == 0)
    #expect(try db.lastCelebration() == nil)
  }

  @Test func aVersion5FileWithNoStateGetsEmptyTables() throws {
    let db = try AppDatabase.open(path: try version5File(state: [:]))
    #expect(try db.snoozes().isEmpty)
    #expect(try db.lastTrigger(.morning) == nil)
    #expect(try db.lastCelebration() == nil)
    #expect(try db.read { try $0.fetchAll(RewardState.self) }.isEmpty)
  }

  @Test func savingAgainUpdatesTheRowAndClearsWhatBecameNil() throws {
    let db = try AppDatabase.inMemory()
    let day = Day("2026-11-19")!
    try db.putFlowEntry(
      ReviewEntry(day: day, swap: "tea", savedAt: "2026-11-19T08:00:00Z").flowEntry)
    try db.putFlowEntry(
      ReviewEntry(day: day, why: "sleep", savedAt: "2026-11-19T09:00:00Z").flowEntry)
    // one row of the day, its answers replaced, a nil one gone
    #expect(try db.read { try $0.integer("SELECT count(*) FROM flow_entry") } == 1)
    #expect(
      try db.review(on: day) == ReviewEntry(day: day, why: "sleep", savedAt: "2026-11-19T09:00:00Z")
    )
    // a help note's id is one note's, whatever its day
    let note = HelpNote(id: "n1", day: day, category: .stress, note: nil, at: "then")
    try db.insertHelpNote(note)
    var moved = note
    moved.day = day.adding(days: 1)
    #expect(throws: (any Error).self) { try db.insertHelpNote(moved) }
    #expect(try db.helpNote(id: "n1") == note)
    // saved again with another day, it is the same note moved; removed by its id
    try db.putFlowEntry(moved.flowEntry)
    #expect(try db.helpNote(id: "n1") == moved)
    #expect(try db.read { try $0.integer("SELECT count(*) FROM flow_entry") } == 2)
    try db.removeFlowEntry(note.flowEntry)
    #expect(try db.helpNote(id: "n1") == nil)
  }

  @Test func aCoachEntryIsStoredAsAnswersByItsPlansQuestionIdsNotColumns() throws {
    let db = try AppDatabase.inMemory()
    let day = Day("2026-11-19")!
    try db.putFlowEntry(PrepEntry(day: day, stickyNotes: true, savedAt: "now").flowEntry)
    try db.putFlowEntry(
      HelpNote(id: "n1", day: day, category: .stress, note: "tea", at: "then").flowEntry)
    let rows = try db.read {
      try $0.rows("SELECT day, flow, key, answers, saved_at FROM flow_entry ORDER BY flow") {
        row in (0..<5).map { i in row.text(at: Int32(i)) ?? "" }
      }
    }
    #expect(
      rows == [
        ["2026-11-19", "need-help", "n1", #"{"category":"stress","note":"tea"}"#, "then"],
        [
          "2026-11-19", "prep", "",
          #"{"breakfast":"no","produce":"no","sticky-notes":"yes","water":"no"}"#, "now",
        ],
      ])
  }

  @Test func anUnknownValueIsUnreadableNotACannotCreate() throws {
    // Given a Morning Focus whose challenge a newer Nudge might write
    let db = try AppDatabase.inMemory()
    let day = Day("2026-11-19")!
    try db.putFlowEntry(
      ReviewEntry(day: day, commitTo: "tea", savedAt: "2026-11-19T08:00:00Z").flowEntry)
    try db.write {
      try $0.execute("UPDATE flow_entry SET answers = json_set(answers, '$.challenge', 'gremlins')")
    }
    // When it is read, then the error is bad data that names the value and asks for an update
    #expect {
      _ = try db.review(on: day)
    } throws: { error in
      guard case .unreadable(let message) = error as? StoreError else { return false }
      return message.contains("'gremlins' as the challenge of review 2026-11-19")
        && message.contains("Update Nudge") && !message.contains("\n")
    }
  }

  @Test func version10KeepsTheJournalsLatestDayAndStoresTheStreaksCheckpoint() throws {
    // Given a version-9 file: a week of days done, the journal of three days of changes
    let path = tempPath()
    let old = try SQLiteConnection(path: path, create: true)
    try AppDatabase.migrate(old, upTo: 9)
    for d in 1...7 {
      try old.execute(
        "INSERT INTO flow_entry (day, flow, answers, saved_at) VALUES (?, 'prep', '{}', 'x')",
        [.text("2026-11-0\(d)")])
    }
    for (day, kind) in [
      ("2026-11-05", "saved"), ("2026-11-06", "saved"), ("2026-11-07", "saved"),
      ("2026-11-07", "edited"),
    ] {
      try old.execute(
        "INSERT INTO entry_change (made_on, at, kind, flow) VALUES (?, 'x', ?, 'prep')",
        [.text(day), .text(kind)])
    }
    // When it is brought to version 10
    try AppDatabase.migrate(old, upTo: 10)
    // Then only the changes of the journal's latest day are kept
    let kept = try old.texts("SELECT made_on || ' ' || kind FROM entry_change ORDER BY id")
    #expect(kept == ["2026-11-07 saved", "2026-11-07 edited"])
    // and today's Nudge carries into its one journal (version 18) only what it can read: these
    // rows name no entry (no before, no after), so none is left to undo, and the three are gone
    let db = try AppDatabase.open(path: path)
    #expect(try db.latestUndoable(madeOn: Day("2026-11-07")!) == nil)
    #expect(
      try db.read { try $0.texts("SELECT name FROM sqlite_master WHERE type = 'table'") }
        .filter { $0.hasSuffix("_change") } == [])
    // and the streak's checkpoint is stored on a read, and thrown away by an older day's write
    let today = Day("2026-11-20")!
    let read = try db.streakDays(today: today)
    #expect(read.summary(today: today).longest == 7)
    #expect(try db.streakCheckpoint()?.through == Day("2026-11-07"))
    try db.putFlowEntry(
      HelpNote(id: "n", day: Day("2026-10-30")!, category: .other, note: nil, at: "x").flowEntry)
    #expect(try db.streakCheckpoint() == nil)
    #expect(try db.streakDays(today: today).summary(today: today).longest == 7)
  }

  @Test func version15GivesEachHabitAnIdThatTravelsAndASyncingDeviceWritesThem() throws {
    // Given a version-14 file that syncs: three habits, a day of one, a plan turned on
    let path = tempPath()
    let old = try SQLiteConnection(path: path, create: true)
    try AppDatabase.migrate(old, upTo: 14)
    for name in ["Read", "Stretch", "Floss"] {
      try old.execute(
        "INSERT INTO habit (name, question, every, since) VALUES (?, '?', 'daily', '2026-11-01')",
        [.text(name)])
    }
    try old.execute(
      "INSERT INTO habit_check (habit, day, done, saved_at) VALUES (2, '2026-11-05', 1, 'x')")
    try old.execute("INSERT INTO plan_choice (plan, is_on) VALUES ('sleep', 1)")
    try old.execute(
      "INSERT INTO sync_self (id, device, name, folder, joined_at) VALUES (1, 'a', 'a', '/x', 'x')")
    try old.execute(AppDatabase.syncTriggersVersion13)
    // When today's Nudge opens it
    let db = try AppDatabase.open(path: path)
    // Then each habit has its own id, in the order they were added, listed in that order
    let uids = try db.read { try $0.texts("SELECT uid FROM habit ORDER BY id") }
    #expect(uids.count == 3 && Set(uids).count == 3)
    #expect(uids.allSatisfy { SyncKey.isHabitID($0) }, "\(uids)")
    #expect(uids == uids.sorted())
    #expect(try db.habits().map(\.name) == ["Read", "Stretch", "Floss"])
    // and, as it syncs, what it holds of them is to be written, and a change of them marked
    let dirty = try db.read { try $0.texts("SELECT key FROM sync_dirty ORDER BY key") }
    #expect(
      dirty == uids.map { "habit/\($0)" } + ["habitday/\(uids[1])/2026-11-05", "plan/sleep"])
    // dated as what it brings (a join's clock), not now: a computer that upgrades later
    // never undoes a change the other made meanwhile
    #expect(try db.read { try $0.texts("SELECT key FROM sync_brought ORDER BY key") } == dirty)
    let triggers = try db.read {
      try $0.texts("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'sync_%'")
    }
    #expect(triggers.sorted() == AppDatabase.syncTriggerNames.sorted())
    // a habit added now sorts after them
    let added = try db.addHabit(
      Habit(name: "Walk", since: Day("2026-11-20")!), madeOn: Day("2026-11-20")!,
      at: "2026-11-20T09:00:00Z")
    #expect(try db.habits().last?.id == added.id)
  }
}
