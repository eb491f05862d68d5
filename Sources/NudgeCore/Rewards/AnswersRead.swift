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

/// The rows an `AnswersRead` brings back: by day, each question's answer in its order (nil
/// when the entry has none).
public typealias AnswerRows = [Day: [String?]]

extension HistoryFacts {
  /// Everything the plans' rules read from entries' answers.
  public static let answersRead: [AnswersRead] = CoachPlan.answersRead + SleepCoach.answersRead

  /// Fills the facts the plans' rules make of the rows asked for by `answersRead` (by flow).
  public mutating func take(_ rows: [String: AnswerRows]) {
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
    Set((rows["checkin"] ?? [:]).compactMap { day, answers in answers[0] == "yes" ? day : nil })
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
    (rows["sleep"] ?? [:]).compactMapValues { answers in
      guard let parts = answers[0]?.split(separator: ":"), parts.count == 2,
        let hour = Int(parts[0]), let minute = Int(parts[1])
      else { return nil }
      return hour * 60 + minute
    }
  }

  /// The days a challenge was completed that the night's log took on (a challenge picked and
  /// not turned down).
  static func challengesCompleted(_ rows: [String: AnswerRows]) -> Set<Day> {
    let nights = rows["sleep"] ?? [:]
    return Set(
      (rows["challenge"] ?? [:]).compactMap { day, answers in
        guard answers[0] == "yes", let night = nights[day], night[1] != nil,
          (night[2] ?? "yes") == "yes"
        else { return nil }
        return day
      })
  }
}
