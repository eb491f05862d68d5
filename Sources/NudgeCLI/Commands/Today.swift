import ArgumentParser
import NudgeCore
import NudgeStore

/// `nudge` / `nudge today`: the phase-aware today view.
struct TodayCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "today", abstract: "What matters now: the morning focus or tonight's prep.")

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let settings = try db.settings()
    let today = ctx.today(settings).day
    let local = LocalTime(ctx.clock.started, in: ctx.timeZone)
    let phase = DayPhase.of(local, rolloverHour: settings.rolloverHour)
    let days = try db.history(from: today.adding(days: -1), through: today).map(\.shown)
    let streakDays = try db.streakDays(today: today)
    let (yesterday, now) = (days[0], days[1])
    let streak = streakDays.summary(today: today)
    let style = ctx.style
    let greeting =
      local.hour >= 18 || local.hour < settings.rolloverHour
      ? "Good evening" : local.hour >= 12 ? "Good afternoon" : "Good morning"
    ctx.line(style.bold("\(greeting) · \(today.long)"))
    let pauses = try db.pauses()
    let pause = pauses.first { $0.contains(today) }
    if let pause {
      ctx.line(
        style.cyan("Paused until \(pause.lastDay.short(from: today))")
          + " · no reminders, your streak waits · "
          + style.cyan("nudge resume"))
    } else if let next = pauses.filter({ $0.isAhead(of: today) }).min(by: {
      $0.firstDay < $1.firstDay
    }), next.firstDay.ordinal - today.ordinal <= 14 {
      // days off planned ahead are said a fortnight before, so a wrong one is seen in time
      ctx.line(
        style.cyan("Days off \(PauseCommand.range(next.firstDay, next.lastDay))")
          + " · planned · " + style.cyan("nudge pause list"))
    }
    let schedules = try db.schedules()
    let reminders = RemindersState.current(ctx, schedules, checkTimers: false)
    if streakDays.firstDone == nil {
      // a first day explains itself: the loop, and how reminders get installed
      ctx.wrappedLine("Welcome to Nudge: a daily loop of three 30-second steps.")
      ctx.line("  evening  " + style.cyan("nudge prep") + "     get tomorrow ready")
      ctx.line("  morning  " + style.cyan("nudge review") + "   pick one swap for the day")
      ctx.line("  night    " + style.cyan("nudge checkin") + "  did the swap happen?")
      // "*-*-* 07:00:00" reads as 07:00, "Sun *-*-* 18:00:00" as "Sun 18:00"
      let times = schedules.filter(\.enabled).map {
        PlainTime.describe($0.expression) ?? $0.expression
      }.joined(separator: ", ")
      ctx.wrappedLine(
        "A craving any time: nudge need-help. Reminders come as desktop notifications ("
          + times + ")"
          + (reminders == .notInstalled ? " once you run 'nudge install'." : "."),
        style: style.dim)
    } else {
      ctx.line(streakLine(streak, style, today: today))
      if pause == nil,
        let rescue = StreakRescue.days(streakDays, frozen: Set(streak.frozen), today: today)
      {
        let commands = rescue.days.map {
          $0 == today.adding(days: -1) ? "--day yesterday" : "--day \($0)"
        }
        let (first, last) = (rescue.days.first ?? today, rescue.days.last ?? today)
        let until = last == today.adding(days: -1) ? "yesterday" : last.description
        ctx.wrappedLine(
          "Your \(rescue.brokenLength)-day streak broke; filling in what you did saves it: "
            + commands.map { "nudge prep \($0)" }.joined(separator: ", ")
            + ". Ill or away those days? Mark them as days off: nudge pause --from \(first) --until \(until)",
          indent: 2, style: style.yellow)
      }
    }
    // nothing will fire the reminders: said plainly (a first day said it in its welcome)
    if reminders != .notInstalled || streakDays.firstDone != nil, let sentence = reminders.sentence
    {
      ctx.wrappedLine(sentence, style: style.yellow)
    }
    // a reminder Do Not Disturb held back until its window ended: said here, once it is not done
    let doneToday = try db.doneFlows(on: today)
    for slot in try heldBack(db, settings, on: today, in: ctx.timeZone)
    where slot.offer(done: doneToday) != nil {
      ctx.wrappedLine(
        slot.heldBackSentence + " Run: nudge \(slot.firstOffer.command)", style: style.yellow)
    }
    // a conflict about this morning's or today's entries: which computer's answers won, and
    // how to take the others (only 'sync status' said it)
    for notice in try ctx.conflictNotices(
      db, plans: { try ctx.plans(db) }, days: [today.adding(days: -1), today])
    {
      ctx.wrappedLine(notice, indent: 2, style: style.yellow)
    }
    // last night, when a watch measured it: the brief's three lines
    for line in ctx.lastNightBrief() { ctx.wrappedLine(line, indent: 2) }
    ctx.line()
    switch phase {
    case .morning:
      if let prep = yesterday.prep {
        // the "other" line belongs to the prep as much as the checklist does
        let items =
          PrepItem.allCases.filter { prep[$0] }.map { $0.label.lowercased() }
          + (prep.other.map { ["also: \($0)"] } ?? [])
        ctx.wrappedLine(
          "Last night's prep: \(prep.doneCount)/\(PrepItem.allCases.count)"
            + (items.isEmpty ? "" : " (\(items.joined(separator: ", ")))"), indent: 2)
      } else {
        ctx.line(style.dim("No prep from last night."))
      }
      if let review = now.review {
        ctx.line(
          style.green("✓") + " Morning Focus done" + (review.commitment.map { ": \($0)" } ?? "."))
      } else {
        ctx.line("→ Morning Focus: " + style.cyan("nudge review"))
      }
    case .evening:
      if let commitment = now.review?.commitment {
        ctx.wrappedLine("Today's focus: \(commitment)", indent: 2)
      }
      let checkinLine: String
      if let checkin = now.checkin {
        checkinLine =
          style.green("✓") + " Check-in done"
          + (checkin.followed == true ? ": swap followed." : ".")
      } else if now.review != nil {
        checkinLine = "→ End-of-day check-in: " + style.cyan("nudge checkin")
      } else {
        checkinLine = "→ How did today go? " + style.cyan("nudge checkin")
      }
      let prepLine =
        now.prep.map {
          style.green("✓") + " Prepped for tomorrow: \($0.doneCount)/\(PrepItem.allCases.count)"
        } ?? "→ Prep tonight (for tomorrow): " + style.cyan("nudge prep")
      // the check-in comes first when there is a swap to check; else tonight's prep leads
      for text in now.review != nil ? [checkinLine, prepLine] : [prepLine, checkinLine] {
        ctx.line(text)
      }
    }
    // the flows of the other plans that are on, those of this part of the day
    let plans = try ctx.plansOn(db)
    for flow in plans.flowsOn where flow.isShown(in: phase) {
      let title = VisibleText.escaped(flow.title)
      guard let entry = now.flows[flow.word] else {
        ctx.line("→ \(title): " + style.cyan("nudge \(flow.word)"))
        continue
      }
      // an entry that counts on a yes/no answered no is noted, not "done" ("Did you complete
      // tonight's challenge?" answered no said "✓ Tonight's challenge done")
      if case .anyOf(let ids) = flow.counts,
        let no = flow.questions.first(where: {
          ids.contains($0.id) && $0.kind == .yesNo && entry.answers[$0.id] == "no"
        })
      {
        ctx.line(style.dim("·") + " \(title) noted: \(VisibleText.escaped(no.ask)) no")
      } else {
        ctx.line(style.green("✓") + " \(title) done")
      }
    }
    // the person's own habits wanted today (or still this week or month): done, skipped, to do;
    // grouped under their first tag when any has one (the untagged last)
    let habits = try db.habits(includingArchived: false)
    let tagged = habits.contains { !$0.tags.isEmpty }
    var groups: [(tag: String?, lines: [String])] = []
    for (habit, report) in zip(
      habits,
      try HabitReport.all(
        habits, db, today: today, scoring: false, weekStart: ctx.weekStart(try db.settings())))
    {
      let name = VisibleText.escaped(habit.name)
      let line: String
      switch report.today {
      case .done: line = style.green("✓") + " \(name) done · " + HabitText.streakLine(report)
      case .skipped: line = style.blue("-") + " \(name) skipped today"
      case .failed: line = style.red("✗") + " \(name): not today (a no)"
      case .due where habit.quit:
        // a habit to quit: its clean run, a kind word the day after a slip, and how to say one
        let word =
          report.streak == 1 && habit.since < today
          ? "a new run starts today; be kind to yourself" : HabitText.streakLine(report)
        line =
          "→ \(name): \(word); a slip: "
          + style.cyan("nudge habit slip \(HabitText.argument(habit))")
      case .due:
        // a measurable one: its amount so far, and the command with --value
        let soFar = report.valueToday.map { " (\($0) of \(habit.target ?? 0) so far)" } ?? ""
        line =
          "→ \(name)\(soFar): "
          + style.cyan(
            "nudge habit done \(HabitText.argument(habit))"
              + (habit.isMeasurable ? " --value N" : ""))
      case .notDue: continue
      }
      let tag = habit.tags.first
      if let at = groups.firstIndex(where: { $0.tag?.lowercased() == tag?.lowercased() }) {
        groups[at].lines.append(line)
      } else {
        groups.append((tag, [line]))
      }
    }
    // the untagged last, the tags in order
    let order = { (tag: String?) in (tag == nil ? "1" : "0") + (tag?.lowercased() ?? "") }
    for group in groups.sorted(by: { order($0.tag) < order($1.tag) }) {
      if tagged {
        ctx.line(style.dim(group.tag.map { "#" + VisibleText.escaped($0) } ?? "other habits"))
      }
      for line in group.lines { ctx.line(tagged ? "  " + line : line) }
    }
    // a flow left unfinished in the last week (Ctrl-C, a closed window) and not saved since is
    // not forgotten (a craving note is one of several: its draft is said whatever the day has);
    // a plan's flow only while its plan is on, so the command it names runs
    for draft in try db.drafts(from: today.adding(days: -FlowDay.backfillDays), through: today)
    where !draft.answers.isEmpty {
      if !draft.flow.isCoach, plans.definitionOn(draft.flow) == nil { continue }
      if try draft.flow != .needHelp && db.isDone(draft.flow, on: draft.day) { continue }
      let title =
        if let word = draft.flow.definedWord { plans.title(of: word) } else { draft.flow.title }
      let day = FlowDay(day: draft.day, savedAt: "", today: today)
      let count = draft.answers.count == 1 ? "1 answer" : "\(draft.answers.count) answers"
      let resume = day.resumeCommand(draft.flow)
      // the command whole on one line, so it can be copied: after the words when it fits
      let said = "✎ \(title) of \(day.name) left unfinished (\(count) kept):"
      if TerminalText.columns(said) + 1 + resume.count <= ctx.columns {
        ctx.line(said + " " + style.cyan(resume))
      } else {
        ctx.wrappedLine(said)
        ctx.line("  " + style.cyan(resume))
      }
    }
    ctx.line(style.dim("A craving? 'nudge need-help' · the week: 'nudge history'"))
  }

  /// The slots whose reminder today ended held back by Do Not Disturb (logged `missed-dnd`).
  private func heldBack(
    _ db: AppDatabase, _ settings: Settings, on today: Day, in zone: ZoneRules
  ) throws -> [ReminderSource] {
    let missed = try db.reminderLog(limit: 200).filter { entry in
      entry.outcome == .missedDND
        && InstantFormat.parse(entry.at).map { settings.dayRule.day(of: $0, in: zone) } == today
    }
    return ReminderSource.allCases.filter { slot in missed.contains { $0.slot == .slot(slot) } }
  }

  private func streakLine(_ s: StreakSummary, _ style: Style, today: Day) -> String {
    if s.current == 0 {
      return s.longest > 0
        ? "Streak: 0 days (longest \(s.longest)). Any flow today starts a new one."
        : "Streak: none yet. Any flow today starts one."
    }
    let days = s.current == 1 ? "1 day" : "\(s.current) days"
    let state = s.todayDone ? style.green("today done") : style.yellow("today pending")
    let frozen =
      s.frozen.contains(today.adding(days: -1)) ? " · yesterday frozen (streak kept)" : ""
    return "🔥 Streak: \(days) · \(state) · \(s.weekDone)/7 this week\(frozen)"
  }
}

extension FlowDefinition {
  /// Whether the today view lists it in `phase`: a morning flow in the morning, an evening
  /// flow in the evening, any other all day.
  func isShown(in phase: DayPhase) -> Bool {
    switch slot {
    case "morning": phase == .morning
    case "evening": phase == .evening
    default: true
    }
  }
}
