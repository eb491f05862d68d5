/// Answers the achievement rules read from stored entries: a flow's questions, by id. The
/// store is asked for these rows and knows no rule; each plan's room says what it reads
/// (`CoachPlan.answersRead`, `SleepCoach.answersRead`) and turns the rows into its facts.
public struct AnswersRead: Hashable, Sendable {
  public var flow: String
  public var questions: [String]

  public init(flow: String, questions: [String]) {
    self.flow = flow
    self.questions = questions
  }
}

/// The rows of one flow the store brings back for the `AnswersRead`s of that flow: each
/// entry's answers to the questions asked, by day.
public struct AnswerRows: Equatable, Sendable {
  /// The questions read, in the order of each row's answers.
  public var questions: [String]
  /// Each entry's answers, by its day, in the order of `questions` (nil: not answered).
  public var byDay: [Day: [String?]]

  public init(questions: [String], byDay: [Day: [String?]] = [:]) {
    self.questions = questions
    self.byDay = byDay
  }

  /// The days with an entry.
  public var days: Dictionary<Day, [String?]>.Keys { byDay.keys }

  /// The answer to `question` of the entry of `day`; nil when it has none, or there is no
  /// entry that day (or the question was not read).
  public func answer(_ question: String, on day: Day) -> String? {
    guard let index = questions.firstIndex(of: question), let row = byDay[day] else { return nil }
    return row[index]
  }
}

extension HistoryFacts {
  /// Everything the plans' rules read from entries' answers.
  public static let answersRead: [AnswersRead] = CoachPlan.answersRead + SleepCoach.answersRead

  /// Fills in the facts the plans' rules make of the rows `answersRead` asked for (by flow).
  public mutating func apply(answerRows rows: [String: AnswerRows]) {
    followedDays = CoachPlan.followedDays(rows)
    bedtimes = SleepCoach.bedtimes(rows)
    challengesCompleted = SleepCoach.challengesCompleted(rows)
  }
}

extension CoachPlan {
  /// What the coach's rules read: whether a check-in says the swap was followed.
  public static let answersRead = [AnswersRead(flow: "checkin", questions: ["followed"])]

  /// The days whose check-in says the swap was followed (the swaps achievements count them).
  static func followedDays(_ rows: [String: AnswerRows]) -> Set<Day> {
    guard let checkins = rows["checkin"] else { return [] }
    return Set(checkins.days.filter { checkins.answer("followed", on: $0) == "yes" })
  }
}

extension SleepCoach {
  /// What the sleep plan's rules read: each night's bedtime and tonight's challenge (and
  /// whether it was accepted), and whether the challenge was completed.
  public static let answersRead = [
    AnswersRead(flow: "sleep", questions: ["bedtime", "challenge", "accept"]),
    AnswersRead(flow: "challenge", questions: ["completed"]),
  ]

  /// Each logged night's bedtime, minutes after midnight ("23:40" is 1420).
  static func bedtimes(_ rows: [String: AnswerRows]) -> [Day: Int] {
    guard let nights = rows["sleep"] else { return [:] }
    var bedtimes: [Day: Int] = [:]
    for day in nights.days {
      guard let parts = nights.answer("bedtime", on: day)?.split(separator: ":"),
        parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1])
      else { continue }
      bedtimes[day] = hour * 60 + minute
    }
    return bedtimes
  }

  /// The days a challenge was completed that the night's log took on (a challenge picked and
  /// not turned down).
  static func challengesCompleted(_ rows: [String: AnswerRows]) -> Set<Day> {
    guard let nights = rows["sleep"], let challenges = rows["challenge"] else { return [] }
    return Set(
      challenges.days.filter { day in
        challenges.answer("completed", on: day) == "yes"
          && nights.answer("challenge", on: day) != nil
          && (nights.answer("accept", on: day) ?? "yes") == "yes"
      })
  }
}
