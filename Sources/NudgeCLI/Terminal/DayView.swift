import NudgeCore

/// Renders a day of history in full, wrapped to the terminal (`show`, `history --full`).
struct DayView {
  let ctx: Context
  let today: Day
  let plans: PlanSet

  /// The heading of a day: "Today · Monday 23 November 2026".
  func heading(_ date: Day) -> String {
    let name = date == today ? "Today · " : date == today.adding(days: -1) ? "Yesterday · " : ""
    return "\(name)\(date.long) \(date.year)"
  }

  func full(_ stored: HistoryDay) {
    let entry = stored.shown
    let style = ctx.style
    ctx.line(style.bold(heading(entry.date)))
    guard entry.isDone else {
      ctx.wrappedLine(
        entry.date >= today.adding(days: -FlowDay.backfillDays) && entry.date < today
          ? "Nothing saved. Fill it in: nudge prep --day \(entry.date) (or review, checkin)."
          : entry.date == today ? "Nothing saved yet today." : "Nothing saved that day.", indent: 2,
        style: style.dim)
      return
    }
    if let prep = entry.prep {
      ctx.line(
        style.cyan("Prep") + " (that evening, for the next day): "
          + "\(prep.doneCount)/\(PrepItem.allCases.count) ready")
      for item in PrepItem.allCases {
        ctx.line("  " + (prep[item] ? style.green("✓") : style.dim("·")) + " \(item.label)")
      }
      if let other = prep.other { field("Also", other) }
    }
    if let review = entry.review {
      ctx.line(style.cyan("Morning Focus"))
      if let why = review.why { field("My Why", why) }
      if let challenge = review.challengeText { field("Challenge", challenge) }
      if let swap = review.swap { field("My swap", swap) }
      if let commitTo = review.commitTo {
        let said = entry.date == today ? "Today I will" : "I will"
        let text =
          "\(said) \(commitTo)" + (review.commitFrom.map { " instead of \($0)" } ?? "") + "."
        ctx.wrappedLine("  " + text, indent: 4)
      }
    }
    if let checkin = entry.checkin {
      ctx.line(style.cyan("Check-in"))
      switch checkin.followed {
      case true?: field("Swap followed", "yes")
      case false?: field("Swap followed", "no")
      case nil: break
      }
      if let feel = checkin.feel { field("How it felt", feel) }
      if let blocker = checkin.blocker { field("What got in the way", blocker) }
    }
    let view = AnsweredView(plans: plans)
    for answered in view.ordered(stored.flows) {
      ctx.line(style.cyan(plans.title(of: answered.flow)))
      for (label, answer) in view.fields(answered, day: stored.flows) { field(label, answer) }
    }
    if !entry.help.isEmpty {
      ctx.line(style.cyan("Cravings") + " (\(entry.help.count))")
      for note in entry.help {
        let what = [note.coach, note.note].compactMap { $0 }.joined(separator: " · ")
        ctx.wrappedLine(
          "  \(clockTime(note.at, in: ctx.timeZone)) \(note.category.rawValue)"
            + (what.isEmpty ? "" : ": \(what)")
            + "  [id \(note.id.prefix(8))]", indent: 8)
      }
    }
  }

  /// "  Label: text", wrapped under the text.
  private func field(_ label: String, _ text: String) {
    ctx.wrappedLine("  \(label): \(text)", indent: 4)
  }
}
