import NudgeCore
import NudgeStore
import NudgeUseCases

/// What undo and redo say: the same words and JSON, one direction each, in the words of the
/// kind of data the change was about.
struct JournalStepReport {
  var redo: Bool

  func say(
    _ ctx: Context, _ db: AppDatabase, _ outcome: UndoChange.Reverted, today: Day, json: Bool
  ) throws {
    let verb = redo ? "redone" : "undone"
    let (step, moved): (JournalChange, UndoChange.Settled)
    switch outcome {
    case .moved(let change, let settled): (step, moved) = (change, settled)
    case .changedSince(let change):
      let since =
        switch change.subject {
        case .entry:
          (change.entryChange?.entry.map { EntryText.describe($0, in: ctx.timeZone) }
            ?? "the entry")
            + " changed since (an import?); change it with 'nudge edit' or 'nudge delete'."
        case .pause: "your days off changed since (a sync or an import); see nudge pause list."
        case .habit: "that habit changed since (a sync or an import); see nudge habit list."
        case .schedule: "those reminder times changed since (a sync); see nudge schedule."
        case .setting: "that setting changed since; see nudge config list."
        case .plan: "that plan was turned on or off since (a sync); see nudge plan list."
        }
      throw CLIError("nothing \(verb): " + since, code: .failure)
    }
    if let habit = step.habitChange {
      return try HabitUndo.say(ctx, db, step, habit, moved, redo: redo, json: json)
    }
    if let pause = step.pauseChange {
      return try PauseUndo.say(ctx, db, pause, moved, redo: redo, today: today, json: json)
    }
    guard let change = step.entryChange else {
      return try SettingUndo(redo: redo).say(ctx, db, step, moved, json: json)
    }
    let streak = try ctx.streak(db, today: today)
    // the entry as it is now, and the one this step took away
    let (now, gone) = redo ? (change.after, change.before) : (change.before, change.after)
    try ctx.render(
      ChangeReport(
        kind: change.kind.rawValue, entry: now,
        newAchievements: moved.newAchievements,
        lostAchievements: moved.lostAchievements, streak: streak, undone: !redo,
        redone: redo, removed: now == nil ? gone : nil), json: json
    ) {
      let what = change.entry.map { EntryText.describe($0, in: ctx.timeZone) } ?? "an entry"
      let done =
        switch (change.kind, redo) {
        case (.saved, false): "Undone: \(what) is gone again."
        case (.updated, false), (.edited, false): "Undone: \(what) has its earlier answers back."
        case (.deleted, false): "Undone: \(what) is back."
        case (.saved, true): "Redone: \(what) is back."
        case (.updated, true), (.edited, true): "Redone: \(what) has its later answers back."
        case (.deleted, true): "Redone: \(what) is deleted again."
        }
      ctx.line(ctx.style.green("✓") + " " + done)
      EntryText.sayEffects(
        ctx, new: moved.newAchievements, lost: moved.lostAchievements, streak: streak)
      if !redo { ctx.line(ctx.style.dim("Undid one too many? 'nudge redo' re-applies it.")) }
    }
  }
}

/// What `delete`, `undo --json` and `redo --json` print.
struct ChangeReport: Encodable {
  var kind: String
  /// The entry as it is now stored (undo), or as it was (delete); null when it is gone.
  @NullWhenAbsent var entry: FlowEntry?
  var newAchievements: [Achievement]
  var lostAchievements: [Achievement]
  var streak: Streak
  var undone = false
  var redone = false
  /// The entry an undone save (or a redone delete) took away.
  @NullWhenAbsent var removed: FlowEntry?

  struct Streak: Encodable {
    var current: Int
    var longest: Int
  }

  init(
    kind: String, entry: FlowEntry?, newAchievements: [Achievement],
    lostAchievements: [Achievement], streak: StreakSummary, undone: Bool = false,
    redone: Bool = false, removed: FlowEntry? = nil
  ) {
    self.kind = kind
    self.entry = entry
    self.newAchievements = newAchievements
    self.lostAchievements = lostAchievements
    self.streak = Streak(current: streak.current, longest: streak.longest)
    self.undone = undone
    self.redone = redone
    self.removed = removed
  }
}

/// How an entry is named in messages.
enum EntryText {
  /// "the Morning Focus of Wednesday 18 November (Today I will …)"; a craving note's time as
  /// `zone` shows it.
  static func describe(_ stored: FlowEntry, in zone: ZoneRules) -> String {
    let day = stored.day.long
    let shown = stored.shown
    if let p = PrepEntry(shown) {
      return "the prep of \(day) (\(p.doneCount)/\(PrepItem.allCases.count) ready)"
    } else if let r = ReviewEntry(shown) {
      return "the Morning Focus of \(day)" + (r.commitTo.map { " (I will \($0))" } ?? "")
    } else if let c = CheckinEntry(shown) {
      let how =
        switch c.followed {
        case true?: " (swap followed)"
        case false?: " (swap missed)"
        case nil: c.feel.map { " (\($0))" } ?? ""
        }
      return "the check-in of \(day)\(how)"
    } else if let n = shown.helpNote {
      return "the \(n.category.rawValue) craving note of \(day), \(clockTime(n.at, in: zone))"
        + (n.note.map { " (\($0))" } ?? "")
    }
    let some = shown.answers.sorted { $0.key < $1.key }.prefix(3)
      .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    return "the \(shown.flow) entry of \(day)" + (some.isEmpty ? "" : " (\(some))")
  }

  /// The streak after a change and the achievements it gave or took away.
  static func sayEffects(
    _ ctx: Context, new: [Achievement], lost: [Achievement], streak: StreakSummary
  ) {
    let days = streak.current == 1 ? "1 day" : "\(streak.current) days"
    ctx.line("Streak: \(days) (longest \(streak.longest)).")
    for achievement in lost {
      ctx.line(
        ctx.style.yellow(
          "Achievement removed: \(ctx.achievementTitle(achievement)) (its condition no longer holds)."
        ))
    }
    for achievement in new {
      ctx.line("Achievement back: \(ctx.achievementTitle(achievement)).")
    }
  }
}
