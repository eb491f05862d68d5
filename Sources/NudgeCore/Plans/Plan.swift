/// A plan: a set of flows with the slots whose reminders offer them and their content,
/// written in a plan file (plans/FORMAT.md). Content only: nothing in it names a program, a
/// path or a command to run; every text is shown escaped.
public struct Plan: Equatable, Sendable {
  /// The plan's id (`coach`, `sleep`): what `nudge plan on NAME` takes.
  public var name: String
  public var title: String
  public var about: String
  /// Whether a person who never chose is following it.
  public var onByDefault: Bool
  public var slots: [PlanSlot]
  public var flows: [FlowDefinition]
  /// Challenges a flow of the plan can offer (the sleep plan's, for tonight), in order.
  public var challenges: [PlanChallenge] = []
}

/// One challenge of a plan's catalogue: a name, a category and what it asks. `{bedtime}` in
/// its words is filled with the bedtime the last nights suggest.
public struct PlanChallenge: Equatable, Sendable {
  public var id: String
  public var category: String
  public var name: String
  public var about: String
}

/// A time of day whose reminder offers the plan's flows that name it: one of the built-in
/// slots (morning, midday, evening, weekly) or the plan's own.
public struct PlanSlot: Equatable, Sendable {
  public var id: String
  /// When, in the plain words `schedule set` takes ("9pm", "weekdays 7:30") or a systemd
  /// calendar expression.
  public var at: String
  /// The reminder's title ("Your sleep challenge is ready").
  public var title: String
}

/// One flow, declared once: its words, its questions in order, what makes an entry count, the
/// slot whose reminder offers it, its first achievement and its celebration's words.
public struct FlowDefinition: Equatable, Sendable {
  public var id: String
  /// The word after `nudge` that runs it (and the host of its `nudge://` link).
  public var word: String
  public var title: String
  public var slot: String?
  /// The line its slot's reminder shows for it ("Your sleep challenge is ready").
  public var reminder: String?
  public var questions: [Question]
  /// Which answers make an entry count for the day.
  public var counts: CountRule
  /// The title of the achievement its first entry earns.
  public var first: String
  /// What is said when an entry is saved (before the celebration).
  public var saved: String

  /// Whether `text` has the shape of a flow's word: a lowercase ASCII letter, then lowercase
  /// letters, digits and `-` (not last), 24 at most.
  public static func isWord(_ text: some StringProtocol) -> Bool {
    guard let first = text.first, first.isASCII, first.isLowercase, text.last != "-",
      text.utf8.count <= 24
    else { return false }
    return text.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }
  }

  /// When an entry counts: any answer, every required question answered, or one of these.
  public enum CountRule: Equatable, Sendable {
    case anyAnswer
    case requiredAnswered
    case anyOf([String])
  }
}

/// One question of a flow.
public struct Question: Equatable, Sendable {
  public var id: String
  /// The words asked ("When did you go to bed?").
  public var ask: String
  public var kind: Kind
  public var required: Bool
  /// The answer offered when there is none yet (Enter keeps it).
  public var offered: String?
  /// Asked only when an earlier question got this answer.
  public var when: Condition?
  /// A time question whose default is what this computer's journal knows of last night.
  public var suggests: NightTime? = nil
  /// The words asked of a past day filled in (`--day`: "That day I will"); nil: `ask`.
  public var past: String? = nil
  /// Other words, asked when an earlier question got an answer ("Anything that made it
  /// hard?" after a yes): the first that holds wins over `ask` and `past`.
  public var rewordings: [Rewording] = []

  /// Words a question is asked in after an earlier question's answer.
  public struct Rewording: Equatable, Sendable {
    public var when: Condition
    public var ask: String

    public init(when: Condition, ask: String) {
      self.when = when
      self.ask = ask
    }
  }

  /// The words to ask it in, given the answers so far (question id → answer) and whether a
  /// past day is being filled in.
  public func words(after answers: [String: String], pastDay: Bool) -> String {
    for rewording in rewordings where rewording.when.holds(in: answers) { return rewording.ask }
    return pastDay ? past ?? ask : ask
  }

  /// What of last night a time question can be offered (`suggest`, plans/FORMAT.md).
  public enum NightTime: String, Equatable, Sendable {
    /// When the computer went to sleep or shut down.
    case bedtime
    /// When it woke or started again.
    case wake
  }

  /// What an answer is.
  public enum Kind: Equatable, Sendable {
    case yesNo
    /// One of the options.
    case oneOf([Option])
    /// Any of the options, several at once.
    case severalOf([Option])
    /// A line of text, at most this many characters.
    case text(maxLength: Int)
    /// A whole number, with its unit ("pages"), within its bounds.
    case number(unit: String?, min: Int, max: Int)
    /// A time of day, HH:MM.
    case timeOfDay
    /// One of the plan's `[[challenge]]` ids, by their id: never asked, but offered by the
    /// plan's rules (the sleep plan's `SleepCoach`) and shown with why; stored as the id.
    case challenge(ids: [String])
  }

  /// One choice of a question: its id (what `--answer ID=VALUE` takes and what is stored) and
  /// the words shown.
  public struct Option: Equatable, Sendable {
    public var id: String
    public var label: String
  }

  /// Another question's answer that this one depends on.
  public struct Condition: Equatable, Sendable {
    public var question: String
    public var answer: String

    /// Whether `answers` (question id → answer) give the question exactly that answer.
    public func holds(in answers: [String: String]) -> Bool { answers[question] == answer }
  }
}
