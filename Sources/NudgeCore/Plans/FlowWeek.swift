/// A defined flow's week (`nudge week`): on how many days it was done, the average of each
/// number question and how often each yes/no question was answered yes.
public struct FlowWeek: Encodable, Equatable, Sendable {
  public var flow: String
  public var title: String
  public var days: Int
  /// The average answer of each number question answered this week, by question id.
  public var averages: [String: Double]
  /// How many entries answered each yes/no question yes, by question id.
  public var yes: [String: Int]

  /// Sums up `entries` (the week's, of `flow`).
  public init(_ flow: FlowDefinition, entries: [AnsweredEntry]) {
    self.flow = flow.word
    title = flow.title
    days = Set(entries.map(\.day)).count
    var averages: [String: Double] = [:]
    var yes: [String: Int] = [:]
    for question in flow.questions {
      let answers = entries.compactMap { $0.answers[question.id] }
      switch question.kind {
      case .number:
        let numbers = answers.compactMap { Double($0) }
        if !numbers.isEmpty {
          averages[question.id] = (numbers.reduce(0, +) / Double(numbers.count) * 10).rounded() / 10
        }
      case .yesNo:
        if !answers.isEmpty { yes[question.id] = answers.filter { $0 == "yes" }.count }
      default: break
      }
    }
    self.averages = averages
    self.yes = yes
  }

  /// "Lunch walk: 3 of 7 days · 25 minutes on average" ("pages 12 on average" for a number
  /// with no unit; "distance 3 km on average" when the unit is not the question's id).
  public func line(_ flow: FlowDefinition) -> String {
    var parts = ["\(title): \(days) of 7 days"]
    for question in flow.questions {
      if let average = averages[question.id] {
        var unit = ""
        if case .number(let named?, _, _) = question.kind { unit = named }
        let shown =
          average == average.rounded()
          ? String(Int(average)) : String((average * 10).rounded() / 10)
        // "42.5 minutes on average", not "minutes 42.5 minutes": the id is said only when the
        // unit does not say what was counted
        parts.append(
          unit.isEmpty
            ? "\(question.id) \(shown) on average"
            : unit.lowercased() == question.id.lowercased()
              || unit.lowercased().hasPrefix(question.id.lowercased())
              ? "\(shown) \(unit) on average" : "\(question.id) \(shown) \(unit) on average")
      }
      if let count = yes[question.id] {
        parts.append("\(question.id): yes \(count) time\(count == 1 ? "" : "s")")
      }
    }
    return parts.joined(separator: " · ")
  }
}

/// The sleep plan's week: average sleep, how far bedtimes spread, challenges completed.
public struct SleepWeek: Encodable, Equatable, Sendable {
  /// Where its figures come from: the nights the sleep plan's answers logged (a watch's
  /// measured nights are `week --json`'s `measured_sleep`).
  public var source = "sleep plan answers"
  public var nightsLogged: Int
  /// Minutes asleep a night on average; nil with no night logged.
  public var averageSleepMinutes: Int?
  /// Latest bedtime minus earliest (across midnight); nil with fewer than two nights.
  public var bedtimeSpreadMinutes: Int?
  public var challengesCompleted: Int

  /// From the week's `nights` (the sleep flow's entries) and `challenges` (the challenge
  /// flow's).
  public init(nights: [AnsweredEntry], challenges: [AnsweredEntry]) {
    let logged = nights.compactMap { SleepCoach.Night(answers: $0.answers) }
    nightsLogged = logged.count
    averageSleepMinutes =
      logged.isEmpty ? nil : logged.map(\.minutesAsleep).reduce(0, +) / logged.count
    let late = logged.map(\.lateBedtime)
    bedtimeSpreadMinutes = late.count < 2 ? nil : late.max()! - late.min()!
    challengesCompleted = challenges.filter { $0.answers["completed"] == "yes" }.count
  }

  /// "Sleep: 7 h 10 a night on average over 5 nights · bedtimes within 40 min · 3 challenges
  /// completed".
  public var line: String? {
    guard nightsLogged > 0 || challengesCompleted > 0 else { return nil }
    var parts: [String] = []
    if let averageSleepMinutes {
      parts.append(
        "Sleep: \(SleepCoach.duration(averageSleepMinutes)) a night on average over \(nightsLogged) night\(nightsLogged == 1 ? "" : "s")"
      )
    }
    if let bedtimeSpreadMinutes {
      parts.append("bedtimes within \(SleepCoach.duration(bedtimeSpreadMinutes))")
    }
    parts.append(
      "\(challengesCompleted) challenge\(challengesCompleted == 1 ? "" : "s") completed")
    return parts.joined(separator: " · ")
  }
}

extension SleepCoach.Night {
  /// A night from the sleep flow's answers (`bedtime`, `wake` as HH:MM, `rested` 1-5); nil
  /// when one is missing or unreadable.
  public init?(answers: FlowAnswers) {
    func minutes(_ id: String) -> Int? {
      guard let text = answers[id] else { return nil }
      let parts = text.split(separator: ":")
      guard parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h),
        (0..<60).contains(m)
      else { return nil }
      return h * 60 + m
    }
    guard let bedtime = minutes("bedtime"), let wake = minutes("wake"),
      let rested = answers["rested"].flatMap({ Int($0) })
    else { return nil }
    self.init(bedtime: bedtime, wake: wake, rested: rested)
  }
}
