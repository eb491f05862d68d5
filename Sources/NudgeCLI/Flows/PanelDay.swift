import NudgeCore
import NudgeStore

/// Today as the panel shows it: the status line's and the tray's, read once.
struct PanelDay {
  var status: PanelStatus
  /// This part of the day's flows, as the status lists them.
  var flows: [PanelStatus.FlowItem]
  /// The habits, as the tray's menu lists them.
  var habits: [TrayMenu.Habit]
  var paused: Bool
  /// When it can next change with nothing written: the part of the day or the day turning.
  var nextChange: Instant

  /// The tray's menu of the day, its items' ids from `ids` (kept for the tray's life).
  func menu(ids: inout TrayMenu.IDs) -> TrayMenu {
    TrayMenu(flows: flows, habits: habits, paused: paused, ids: &ids)
  }

  /// What `now` holds: the streak, this part of the day's flows (the coach's and those of the
  /// plans that are on, those its reminder came for marked), the habits wanted today, and a
  /// pause holding today.
  static func read(_ ctx: Context, _ db: AppDatabase, at now: Instant) throws -> PanelDay {
    let settings = try db.settings()
    let zone = ctx.timeZone
    let today = ctx.today(settings, at: now).day
    let local = LocalTime(now, in: zone)
    let phase = DayPhase.of(local, rolloverHour: settings.rolloverHour)
    let done = try db.doneFlows(on: today)
    let plans = try ctx.plansOn(db)
    // the slots whose reminder came today: their flows, not done, are overdue
    let reminded = Set(
      try db.reminderLog(limit: 200).filter { entry in
        [Reminder.Outcome.shown, .undelivered, .snoozed, .dismissed, .missedDND].contains(
          entry.outcome)
          && InstantFormat.parse(entry.at).map { settings.dayRule.day(of: $0, in: zone) }
            == today
      }.flatMap { entry -> [Flow] in
        guard case .slot(let slot) = entry.slot else { return [] }
        return (slot.flow.map { [$0] } ?? []) + plans.flowsOn(slot).map { .defined($0.word) }
      })
    let coach: [Flow] =
      switch phase {
      case .morning: [.review]
      case .evening: done.contains(.review) ? [.checkin, .prep] : [.prep, .checkin]
      }
    let flows =
      coach.map {
        PanelStatus.FlowItem(
          title: $0.title, link: $0.deepLink, done: done.contains($0),
          reminded: reminded.contains($0))
      }
      + plans.flowsOn.filter { $0.isShown(in: phase) }.map {
        let flow = Flow.defined($0.word)
        return PanelStatus.FlowItem(
          title: $0.title, link: flow.deepLink, done: done.contains(flow),
          reminded: reminded.contains(flow))
      }
    let habits = try db.habits(includingArchived: false)
    let reports = try HabitReport.all(
      habits, db, today: today, scoring: false, weekStart: ctx.weekStart(settings))
    let pause = try db.pauses().first { $0.contains(today) }
    let status = PanelStatus(
      heading: today.long, streak: try db.streakDays(today: today).summary(today: today).current,
      flows: flows,
      habits: zip(habits, reports).map { PanelStatus.HabitItem(name: $0.name, state: $1.today) },
      pausedUntil: pause.map { $0.lastDay.short(from: today) })
    return PanelDay(
      status: status, flows: flows,
      habits: zip(habits, reports).map {
        TrayMenu.Habit(id: $0.id, name: $0.name, state: $1.today, isMeasurable: $0.isMeasurable)
      }, paused: pause != nil,
      nextChange: PanelStatus.nextChange(
        after: now, in: zone, rolloverHour: settings.rolloverHour))
  }
}
