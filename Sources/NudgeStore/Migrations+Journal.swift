import FoundationEssentials
import NudgeCore

extension AppDatabase {
  /// Version 18: the changes kept in the three journals it replaces (entries, habits, pauses:
  /// only the latest day's) carried over into the one journal, in their one order (`seq`, then
  /// the time, then the row), each as the keys it changed with their values before and after;
  /// then the three are dropped. Their rows are read with today's code (as achievements are
  /// worked out again after migrating): one that can't be read is left behind, never undone.
  static func carryJournalsOver(_ db: SQLiteConnection) throws {
    struct Carried {
      var order: (seq: Int, at: String, journal: Int, id: Int)
      var madeOn: String
      var subject: JournalSubject
      var steps: [JournalChange.Step]
      var undone: Bool
    }
    var carried: [Carried] = []
    let columns = "id, made_on, at, seq, kind, before, after, undone"
    func add(
      _ row: SQLiteConnection.Statement, journal: Int, _ subject: JournalSubject,
      _ steps: [JournalChange.Step]
    ) {
      guard !steps.isEmpty else { return }
      carried.append(
        Carried(
          order: (row.integer(at: 3) ?? 0, row.text(at: 2) ?? "", journal, row.integer(at: 0) ?? 0),
          madeOn: row.text(at: 1) ?? "", subject: subject, steps: steps,
          undone: row.integer(at: 7) == 1))
    }
    _ = try db.rows("SELECT \(columns), flow FROM entry_change") { row in
      guard let kind = ChangeKind(rawValue: row.text(at: 4) ?? ""),
        let flow = Flow(rawValue: row.text(at: 8) ?? "")
      else { return }
      let before = row.text(at: 5).flatMap { try? FlowEntry(flow: flow, json: $0) }
      let after = row.text(at: 6).flatMap { try? FlowEntry(flow: flow, json: $0) }
      // a side that is there and can't be read: the row is left behind (never a save or a delete)
      guard let entry = after ?? before, (before == nil) == row.isNull(at: 5),
        (after == nil) == row.isNull(at: 6)
      else { return }
      add(
        row, journal: 0, .entry(kind),
        [
          .init(
            key: .of(entry), before: before.map(SyncValue.init(entry:)),
            after: after.map(SyncValue.init(entry:)))
        ])
    }
    _ = try db.rows(
      """
      SELECT c.id, c.made_on, c.at, c.seq, c.kind, c.before, c.after, c.undone, h.uid
      FROM habit_change AS c JOIN habit AS h ON h.id = c.habit
      """
    ) { row in
      guard let kind = HabitChange.Kind(rawValue: row.text(at: 4) ?? ""),
        let uid = row.text(at: 8)
      else { return }
      if kind.isCheck {
        let (before, after) = (
          HabitCheck.from(json: row.text(at: 5)), HabitCheck.from(json: row.text(at: 6))
        )
        guard let day = (after ?? before)?.day, (before == nil) == row.isNull(at: 5),
          (after == nil) == row.isNull(at: 6)
        else { return }
        func value(_ check: HabitCheck?) -> SyncValue? {
          check.map {
            SyncValue(
              savedAt: $0.savedAt, done: $0.done, failed: $0.failed ? true : nil, amount: $0.value,
              note: $0.note)
          }
        }
        add(
          row, journal: 1, .habit(kind),
          [
            .init(
              key: .data(.habitDay(uid: uid, day: day)), before: value(before), after: value(after))
          ])
      } else {
        func value(_ json: String?) -> SyncValue? {
          HabitRow.from(json: json)?.habit.map { habit in
            var habit = habit
            habit.uid = uid
            return SyncValue(habit: ExportHabit(habit, days: []))
          }
        }
        let (before, after) = (value(row.text(at: 5)), value(row.text(at: 6)))
        guard (before == nil) == row.isNull(at: 5), (after == nil) == row.isNull(at: 6) else {
          return
        }
        add(
          row, journal: 1, .habit(kind),
          [.init(key: .data(.habit(uid: uid)), before: before, after: after)])
      }
    }
    _ = try db.rows("SELECT \(columns), pause FROM pause_change") { row in
      guard let kind = PauseChange.Kind(rawValue: row.text(at: 4) ?? ""),
        let pause = pauses(json: row.text(at: 8))?.first,
        let before = pauses(json: row.text(at: 5)), let after = pauses(json: row.text(at: 6))
      else { return }
      var firstDays: [Day] = []
      for first in (before + after).map(\.firstDay) where !firstDays.contains(first) {
        firstDays.append(first)
      }
      add(
        row, journal: 2, .pause(kind, pause),
        firstDays.map { first in
          .init(
            key: .data(.pause(firstDay: first)),
            before: before.first { $0.firstDay == first }.map { SyncValue(lastDay: $0.lastDay) },
            after: after.first { $0.firstDay == first }.map { SyncValue(lastDay: $0.lastDay) })
        })
    }
    carried.sort { $0.order < $1.order }
    for (index, change) in carried.enumerated() {
      for step in change.steps where !sameValue(step.before, step.after) {
        try db.execute(
          """
          INSERT INTO change_journal (change, made_on, at, kind, about, key, before, after, undone)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
          [
            SQLValue(index + 1), .text(change.madeOn), .text(change.order.at),
            .text(change.subject.kindText), SQLValue(change.subject.aboutText),
            .text(step.key.description), SQLValue(step.before?.text), SQLValue(step.after?.text),
            .integer(change.undone ? 1 : 0),
          ])
      }
    }
    try db.execute(
      """
      DROP TABLE entry_change;
      DROP TABLE habit_change;
      DROP TABLE pause_change;
      """)
  }

  static func pauses(json: String?) -> [Pause]? {
    guard let json else { return nil }
    return try? NudgeJSON.decode([Pause].self, from: Data(json.utf8))
  }
}
