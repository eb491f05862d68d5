extension ExportDocument {
  /// Settings that name a command, a program or a path on this machine: never taken from a
  /// file, only from `nudge config set` here.
  public static let machineSettings: Set<SettingKey> = [.terminal]

  /// Checks what JSON types alone cannot, and holds every value to what the flows themselves
  /// allow: an entry that counts, days Nudge keeps, a note's day that matches its time,
  /// timestamps, text, lengths, counts, ids, settings. The error names the first offending
  /// path.
  public func validate() throws(InputError) {
    func unique(_ days: [Day], _ name: String) throws(InputError) {
      var seen = Set<Day>()
      for (index, day) in days.enumerated() where !seen.insert(day).inserted {
        throw InputError("\(name)[\(index)].day repeats \(day); keep one entry a day.")
      }
    }
    func size(_ count: Int, _ name: String) throws(InputError) {
      guard count <= Self.maxItems else {
        throw InputError(
          "\(name) holds \(count) items, more than the \(Self.maxItems) Nudge keeps; pass a file written by 'nudge export'."
        )
      }
    }
    // where a value is, said only when it is wrong (ten years are 12,000 entries, each with
    // several places to name)
    func day(_ value: Day, _ location: @autoclosure () -> String) throws(InputError) {
      guard SupportedTime.days.contains(value) else {
        throw InputError(
          "\(location()) is \(value), outside the days Nudge keeps (\(SupportedTime.days.lowerBound) to \(SupportedTime.days.upperBound))."
        )
      }
    }
    func instant(_ text: String, _ location: @autoclosure () -> String) throws(InputError)
      -> Instant
    {
      guard text.utf8.count <= 40, let parsed = InstantFormat.parse(text) else {
        throw InputError(
          "\(location()) is '\(VisibleText.escaped(String(text.prefix(40))))', not a time like 2026-11-20T21:30:00+01:00."
        )
      }
      guard SupportedTime.holds(stored: parsed) else {
        throw InputError(
          "\(location()) is \(text), outside the days Nudge keeps (\(SupportedTime.days.lowerBound) to \(SupportedTime.days.upperBound))."
        )
      }
      return parsed
    }
    /// A save can come days after its day (a backfill, an edit) but never before it.
    func saved(_ text: String, _ entryDay: Day, _ location: @autoclosure () -> String)
      throws(InputError)
    {
      let at = try instant(text, location())
      guard let local = Self.wallClock(text, at), local.date >= entryDay else {
        throw InputError("\(location()) \(text) comes before the entry's day \(entryDay).")
      }
    }
    func text(_ value: String?, _ location: @autoclosure () -> String) throws(InputError) {
      if let value, value != (try FreeText.clean(value, field: location())) {
        throw InputError("\(location()) has surrounding spaces or is empty; remove them.")
      }
    }
    func counts(_ entry: some DayEntry, _ location: @autoclosure () -> String, _ what: String)
      throws(InputError)
    {
      guard entry.counts else {
        throw InputError(
          "\(location()) has no \(what), so the flow would not count it; add it or leave the entry out."
        )
      }
    }
    try size(prep.count, "prep")
    try size(review.count, "review")
    try size(checkin.count, "checkin")
    try size(help.count, "help")
    try size(pauses.count, "pauses")
    try unique(prep.map(\.day), "prep")
    try unique(review.map(\.day), "review")
    try unique(checkin.map(\.day), "checkin")
    for (i, e) in prep.enumerated() {
      try day(e.day, "prep[\(i)].day")
      try saved(e.savedAt, e.day, "prep[\(i)].saved_at")
      try text(e.other, "prep[\(i)].other")
      try counts(e, "prep[\(i)]", "item ready and no other line")
    }
    for (i, e) in review.enumerated() {
      try day(e.day, "review[\(i)].day")
      try saved(e.savedAt, e.day, "review[\(i)].saved_at")
      for (v, k) in [
        (e.why, "why"), (e.challengeOther, "challenge_other"), (e.swap, "swap"),
        (e.commitTo, "commit_to"), (e.commitFrom, "commit_from"),
      ] {
        try text(v, "review[\(i)].\(k)")
      }
      if e.challengeOther != nil && e.challenge != .other {
        throw InputError("review[\(i)].challenge_other is set, but the challenge is not 'other'.")
      }
      try counts(e, "review[\(i)]", "commitment (commit_to)")
    }
    for (i, e) in checkin.enumerated() {
      try day(e.day, "checkin[\(i)].day")
      try saved(e.savedAt, e.day, "checkin[\(i)].saved_at")
      try text(e.feel, "checkin[\(i)].feel")
      try text(e.blocker, "checkin[\(i)].blocker")
      try counts(e, "checkin[\(i)]", "answer (followed or feel)")
    }
    var ids = Set<String>()
    for (i, n) in help.enumerated() {
      guard !n.id.isEmpty, n.id.utf8.count <= 64,
        n.id.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
      else { throw InputError("help[\(i)].id must be 1 to 64 visible ASCII characters.") }
      guard ids.insert(n.id).inserted else {
        throw InputError("help[\(i)].id repeats '\(n.id)'; each note needs its own id.")
      }
      try day(n.day, "help[\(i)].day")
      let at = try instant(n.at, "help[\(i)].at")
      // the day a note counts for is its own date, or the one before when it was written
      // before the rollover hour (at most 12:00)
      guard let local = Self.wallClock(n.at, at),
        n.day == local.date
          || n.day == local.date.adding(days: -1) && local.hour < DayRule.maxRolloverHour
      else {
        throw InputError("help[\(i)].day \(n.day) does not match its time \(n.at).")
      }
      try text(n.note, "help[\(i)].note")
      try text(n.coach, "help[\(i)].coach")
    }
    var slots = Set<ReminderSource>()
    for (i, s) in schedule.enumerated() {
      guard slots.insert(s.slot).inserted else {
        throw InputError("schedule[\(i)].slot repeats '\(s.slot.rawValue)'; keep one.")
      }
      guard !s.expression.isEmpty, s.expression.count <= 256,
        !s.expression.unicodeScalars.contains(where: {
          $0.properties.generalCategory == .control || VisibleText.isHostile($0)
        })
      else {
        throw InputError("schedule[\(i)].expression must be a calendar expression on one line.")
      }
    }
    var starts = Set<Day>()
    for (i, p) in pauses.enumerated() {
      try day(p.firstDay, "pauses[\(i)].first_day")
      try day(p.lastDay, "pauses[\(i)].last_day")
      guard starts.insert(p.firstDay).inserted else {
        throw InputError("pauses[\(i)].first_day repeats \(p.firstDay); keep one.")
      }
      guard p.firstDay <= p.lastDay, p.lastDay.ordinal - p.firstDay.ordinal < Pause.maxDays else {
        throw InputError(
          "pauses[\(i)] must end on or after its first day and last at most \(Pause.maxDays) days.")
      }
    }
    for (i, p) in pauses.enumerated() {
      if let other = pauses.firstIndex(where: {
        $0 != p && $0.firstDay <= p.lastDay && p.firstDay <= $0.lastDay
      }), other < i {
        throw InputError("pauses[\(i)] overlaps pauses[\(other)]; a day is paused once.")
      }
    }
    try size(plans.count, "plans")
    for name in plans.keys.sorted() where !PlanFile.isID(name) {
      throw InputError("plans has a key that is not a plan's name.")
    }
    try size(flows.count, "flows")
    var flowDays = Set<String>()
    for (i, e) in flows.enumerated() {
      guard FlowDefinition.isWord(e.flow) else {
        throw InputError("flows[\(i)].flow is not a flow's word (lowercase letters, digits, '-').")
      }
      guard flowDays.insert("\(e.flow) \(e.day)").inserted else {
        throw InputError("flows[\(i)] repeats \(e.flow) on \(e.day); keep one entry a day.")
      }
      try day(e.day, "flows[\(i)].day")
      try saved(e.savedAt, e.day, "flows[\(i)].saved_at")
      guard !e.answers.values.isEmpty, e.answers.values.count <= PlanFile.maxQuestions else {
        throw InputError(
          "flows[\(i)].answers must hold 1 to \(PlanFile.maxQuestions) answers.")
      }
      for (id, value) in e.answers.values.sorted(by: { $0.key < $1.key }) {
        guard PlanFile.isID(id) else {
          throw InputError("flows[\(i)].answers has a key that is not a question id.")
        }
        try text(value, "flows[\(i)].answers.\(id)")
      }
    }
    // habits: as many as Nudge keeps, their days too (each in the days Nudge keeps)
    guard habits.count <= Habit.maxCount else {
      throw InputError(
        "habits holds \(habits.count) habits, more than the \(Habit.maxCount) Nudge keeps.")
    }
    var habitDays = 0
    for (i, h) in habits.enumerated() {
      try day(h.since, "habits[\(i)].since")
      habitDays += h.days.count
      guard habitDays <= Habit.maxDaysInAll else {
        throw InputError(
          "habits hold more than the \(Habit.maxDaysInAll) recorded days Nudge keeps of all habits together."
        )
      }
      for (j, d) in h.days.enumerated() { try day(d.day, "habits[\(i)].days[\(j)].day") }
    }
    // plan files: a name and no path, as many as a plans folder is read for, each no larger
    // than a plan file may be (what is in one is judged by the plan file rules on import)
    guard planFiles.count <= 100 else {
      throw InputError(
        "plan_files holds \(planFiles.count) files, more than the 100 an export carries.")
    }
    var names = Set<String>()
    for (i, file) in planFiles.enumerated() {
      guard ExportPlanFile.isFileName(file.name) else {
        throw InputError(
          "plan_files[\(i)].name '\(VisibleText.escaped(String(file.name.prefix(40))))' is not a plan file's name (NAME.plan, NAME a lowercase letter then letters, digits, - or _)."
        )
      }
      guard names.insert(file.name).inserted else {
        throw InputError("plan_files[\(i)].name repeats \(file.name); keep one file a name.")
      }
      guard file.text.utf8.count <= PlanFile.maxBytes else {
        throw InputError(
          "plan_files[\(i)].text is larger than \(PlanFile.maxBytes / 1024) KiB, the most a plan file may be."
        )
      }
    }
    try size(achievements.count, "achievements")
    for (name, value) in settings.sorted(by: { $0.key < $1.key }) {
      guard name.utf8.count <= 64, value.utf8.count <= 1024 else {
        throw InputError("settings.\(VisibleText.escaped(String(name.prefix(64)))) is too long.")
      }
      do {
        let key = try SettingKey.named(name)
        // a setting that names a command on this machine is skipped, whatever it says
        if Self.machineSettings.contains(key) { continue }
        _ = try key.validate(value)
      } catch {
        throw InputError(
          "settings.\(VisibleText.escaped(name)): \(VisibleText.escaped(error.message))")
      }
    }
  }

  /// Refuses what no flow could have saved by `today` and `now`: an entry, a note or a save
  /// for a day after tomorrow or a time more than a day ahead (a day's slack for another
  /// device's zone); the error names the first one.
  public func checkNotAfter(day today: Day, now: Instant) throws(InputError) {
    let lastDay = today.adding(days: 1)
    let lastInstant = now.adding(seconds: 86400)
    func check(_ day: Day, _ saved: String, _ location: String) throws(InputError) {
      if day > lastDay {
        throw InputError(
          "\(location).day is \(day), a day no flow can have saved yet (today is \(today)).")
      }
      if let at = InstantFormat.parse(saved), at > lastInstant {
        throw InputError("\(location) was saved at \(saved), later than now.")
      }
    }
    for (i, e) in prep.enumerated() { try check(e.day, e.savedAt, "prep[\(i)]") }
    for (i, e) in review.enumerated() { try check(e.day, e.savedAt, "review[\(i)]") }
    for (i, e) in checkin.enumerated() { try check(e.day, e.savedAt, "checkin[\(i)]") }
    for (i, n) in help.enumerated() { try check(n.day, n.at, "help[\(i)]") }
    for (i, e) in flows.enumerated() { try check(e.day, e.savedAt, "flows[\(i)]") }
    for (i, h) in habits.enumerated() {
      if h.since > lastDay {
        throw InputError(
          "habits[\(i)].since is \(h.since), a day no habit can have started yet (today is \(today))."
        )
      }
      for (j, d) in h.days.enumerated() { try check(d.day, d.savedAt, "habits[\(i)].days[\(j)]") }
    }
  }

  /// The date and hour on the clock that `text` was written with (its own offset).
  static func wallClock(_ text: String, _ instant: Instant) -> (date: Day, hour: Int)? {
    guard let offset = InstantFormat.offset(of: text) else { return nil }
    let local = instant.seconds + offset
    let days = local >= 0 ? local / 86400 : (local - 86399) / 86400
    return (Day(ordinal: days), (local - days * 86400) / 3600)
  }
}
