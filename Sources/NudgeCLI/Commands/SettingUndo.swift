import NudgeCore
import NudgeStore
import NudgeUseCases

/// What `undo` and `redo` say of a change to the reminder times, a setting or a plan's choice,
/// after putting what it changed in place: the timers of the times as they are now (when the
/// reminders are installed), the staleness windows, a plan's own timers.
struct SettingUndo {
  var redo: Bool

  /// What `undo --json` and `redo --json` print: what the change was and each key as the step
  /// left it (null: back to its default).
  struct Report: Encodable {
    var undone: String?
    var redone: String?
    var changes: [Key]
    var newAchievements: [Achievement]
    var lostAchievements: [Achievement]

    struct Key: Encodable {
      var key: String
      @NullWhenAbsent var value: [String: String]?
    }
  }

  func say(
    _ ctx: Context, _ db: AppDatabase, _ change: JournalChange, _ moved: UndoChange.Settled,
    json: Bool
  ) throws {
    switch change.subject {
    case .setting: try UserUnits(ctx: ctx, dryRun: false).updateWindows(db.settings(), db: db)
    default: try UserUnits(ctx: ctx, dryRun: false).update(try ctx.allSchedules(db), db: db)
    }
    let now = change.steps.map { (key: $0.key, value: redo ? $0.after : $0.before) }
    let kind =
      switch change.subject {
      case .schedule: "schedule-set"
      case .setting(let key): "config-" + key.rawValue
      case .plan(_, let on): on ? "plan-on" : "plan-off"
      default: "change"
      }
    try ctx.render(
      Report(
        undone: redo ? nil : kind, redone: redo ? kind : nil,
        changes: now.map { Report.Key(key: $0.key.description, value: $0.value?.fields) },
        newAchievements: moved.newAchievements, lostAchievements: moved.lostAchievements),
      json: json
    ) {
      let what: String
      switch change.subject {
      case .schedule:
        let times = now.compactMap { step -> String? in
          guard case .data(.slot(let slot)) = step.key else { return nil }
          guard let value = step.value, let expression = value.expression else {
            return "\(slot.rawValue) at its default time again"
          }
          return "\(slot.rawValue) \(VisibleText.escaped(expression))"
            + (value.enabled == false ? ", off" : "") + " again"
        }
        what = "a change to the reminder times (\(times.joined(separator: "; ")))"
      case .setting(let key):
        let value = now.first?.value?.value
        what =
          "the change to \(key.rawValue) ("
          + (value.map {
            "\(key.rawValue) = \($0.isEmpty ? "(auto)" : VisibleText.escaped($0)) again"
          }
            ?? "back to its default") + ")"
      case .plan(let name, let on):
        let isOn = redo == on
        what = "turning the \(name) plan \(on ? "on" : "off") (it is \(isOn ? "on" : "off") again)"
      default:
        what = "a change"
      }
      ctx.line(ctx.style.green("✓") + " \(redo ? "Redone" : "Undone"): \(what).")
      ctx.sayAchievements(
        lost: moved.lostAchievements, new: moved.newAchievements,
        lostBecause: "its condition no longer holds")
      if !redo { ctx.line(ctx.style.dim("Undid one too many? 'nudge redo' re-applies it.")) }
    }
  }
}
