import NudgeCore
import NudgeStore
import NudgeUseCases

extension HabitCommand {
  /// Maps `backup` (Loop's, or another tracker's read as one) and writes it, all or nothing,
  /// then says what came: habits, checks, noes and skips, and what was brought near.
  static func bringIn(
    _ backup: LoopBackup, also: [String] = [], db: AppDatabase, now: (day: Day, savedAt: String),
    _ ctx: Context
  ) throws {
    let mapped: LoopImport
    do throws(InputError) {
      mapped = try LoopImport.of(backup, today: now.day, reserved: HabitCommand.reservedNames)
    } catch {
      throw CLIError(error.message, code: .badData)
    }
    for habit in mapped.habits where habit.habit.at != nil {
      if let problem = ctx.planTimeProblem(habit.habit.at!) {
        throw CLIError(problem, code: .badData)
      }
    }
    let (count, settled) = try HabitChanges(db: db).importHabits(mapped.habits, at: now.savedAt)
    try HabitReminders.update(ctx, db)
    let checks = mapped.habits.flatMap(\.checks)
    let skips = checks.filter(\.isSkip).count
    let noes = checks.filter(\.failed).count
    let done = checks.count - skips - noes
    let noWords = noes == 0 ? "" : ", \(noes) no\(noes == 1 ? "" : "s")"
    ctx.line(
      ctx.style.green("✓")
        + " From \(backup.source): \(mapped.habits.count) habit\(mapped.habits.count == 1 ? "" : "s") (\(count.newHabits) new, \(count.sameHabits) here already), \(done) check\(done == 1 ? "" : "s")\(noWords) and \(skips) skip\(skips == 1 ? "" : "s"): \(count.newChecks) new, \(count.sameChecks) the same, \(count.keptChecks) kept as recorded here."
    )
    for note in also + mapped.notes { ctx.line(ctx.style.dim("  " + note + ".")) }
    ctx.line(ctx.style.dim("  (an import is not taken back by nudge undo)"))
    if !settled.newAchievements.isEmpty {
      ctx.line("Earned: " + settled.newAchievements.map(\.title).joined(separator: ", ") + ".")
    }
  }
}
