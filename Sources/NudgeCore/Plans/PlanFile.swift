/// Reads a plan file (plans/FORMAT.md) into a `Plan`, holding everything to the format's
/// bounds: hostile until checked. Every refusal names its line.
public enum PlanFile {
  /// The format version this Nudge reads (`format = 1` at the top).
  public static let format = 1
  /// The most a plan file may hold.
  public static let maxBytes = 64 * 1024
  public static let maxSlots = 8
  public static let maxFlows = 12
  public static let maxQuestions = 24
  public static let maxOptions = 40
  public static let maxChallenges = 100
  /// The longest title, question or label, and the longest `about`.
  public static let maxLine = 200
  public static let maxAbout = 1000

  /// Whether `text` is an id as a plan file writes one (a question's, an option's).
  public static func isID(_ text: String) -> Bool { TableReader.isID(text) }

  /// The built-in slots a flow may name without declaring them.
  public static let builtInSlots = ReminderSource.allCases.map(\.rawValue)

  /// Reads `text`. `reservedWords` are the words `nudge` already has (a flow cannot take one);
  /// `timeProblem` says what is wrong with a slot's `at` (nil: it is a time Nudge reads).
  public static func read(
    _ text: String, reservedWords: Set<String> = [], timeProblem: (String) -> String? = { _ in nil }
  ) throws(PlanFileError) -> Plan {
    guard text.utf8.count <= maxBytes else {
      throw PlanFileError(line: 1, "the file is over \(maxBytes / 1024) KiB; a plan is smaller")
    }
    let tables = try PlanText.tables(text)
    var top = TableReader(tables[0])
    let version = try top.number("format", required: true, in: 1...1000) ?? 0
    guard version == format else {
      throw PlanFileError(
        line: top.lineOf("format"),
        "format \(version) is not one this Nudge reads (it reads format \(format)); update Nudge")
    }
    try top.finish()
    var plan: Plan? = nil
    var slots: [PlanSlot] = []
    var challenges: [PlanChallenge] = []
    var flows: [(definition: FlowDefinition, line: Int, countsLine: Int)] = []
    for table in tables.dropFirst() {
      var reader = TableReader(table)
      switch table.name {
      case "plan":
        guard plan == nil else { throw PlanFileError(line: table.line, "[plan] is there twice") }
        plan = Plan(
          name: try reader.id("name"), title: try reader.line("title"),
          about: try reader.text("about", max: maxAbout) ?? "",
          onByDefault: try reader.flag("on") ?? false, slots: [], flows: [])
      case "[[slot]]":
        guard slots.count < maxSlots else {
          throw PlanFileError(line: table.line, "a plan has at most \(maxSlots) slots")
        }
        let id = try reader.id("id")
        guard !slots.contains(where: { $0.id == id }), !builtInSlots.contains(id) else {
          throw PlanFileError(
            line: reader.lineOf("id"),
            "slot '\(id)' is declared twice (or is built in: \(builtInSlots.joined(separator: ", ")))"
          )
        }
        let at = try reader.line("at")
        if let problem = timeProblem(at) {
          throw PlanFileError(line: reader.lineOf("at"), problem)
        }
        slots.append(PlanSlot(id: id, at: at, title: try reader.line("title")))
      case "[[flow]]":
        guard flows.count < maxFlows else {
          throw PlanFileError(line: table.line, "a plan has at most \(maxFlows) flows")
        }
        flows.append(
          (try flow(&reader, reservedWords: reservedWords), table.line, reader.lineOf("counts")))
      case "[[challenge]]":
        guard challenges.count < maxChallenges else {
          throw PlanFileError(line: table.line, "a plan has at most \(maxChallenges) challenges")
        }
        let id = try reader.id("id")
        guard !challenges.contains(where: { $0.id == id }) else {
          throw PlanFileError(line: reader.lineOf("id"), "challenge '\(id)' is there twice")
        }
        challenges.append(
          PlanChallenge(
            id: id, category: try reader.id("category"), name: try reader.line("name"),
            about: try reader.line("about")))
      case "[[flow.question]]":
        guard !flows.isEmpty else {
          throw PlanFileError(line: table.line, "a [[flow.question]] belongs under a [[flow]]")
        }
        var flow = flows[flows.count - 1].definition
        guard flow.questions.count < maxQuestions else {
          throw PlanFileError(
            line: table.line, "a flow has at most \(maxQuestions) questions")
        }
        flow.questions.append(try question(&reader, after: flow.questions))
        flows[flows.count - 1].definition = flow
      default:
        throw PlanFileError(
          line: table.line,
          "\(table.name) is not a table of a plan: use [plan], [[slot]], [[flow]], [[flow.question]] or [[challenge]]"
        )
      }
      try reader.finish()
    }
    guard var plan else { throw PlanFileError(line: 1, "the file has no [plan] table") }
    guard !flows.isEmpty else {
      throw PlanFileError(line: 1, "the plan has no [[flow]]: a plan is at least one flow")
    }
    let slotIDs = Set(slots.map(\.id) + builtInSlots)
    var words: Set<String> = []
    var ids: Set<String> = []
    for (flow, line, countsLine) in flows {
      guard !flow.questions.isEmpty else {
        throw PlanFileError(line: line, "flow '\(flow.id)' has no [[flow.question]]")
      }
      guard ids.insert(flow.id).inserted, words.insert(flow.word).inserted else {
        throw PlanFileError(
          line: line, "flow '\(flow.id)' (or its word '\(flow.word)') is there twice")
      }
      if let slot = flow.slot, !slotIDs.contains(slot) {
        throw PlanFileError(
          line: line,
          "flow '\(flow.id)' names slot '\(slot)', which is neither built in (\(builtInSlots.joined(separator: ", "))) nor a [[slot]] of this plan"
        )
      }
      if case .anyOf(let named) = flow.counts,
        let unknown = named.first(where: { id in !flow.questions.contains { $0.id == id } })
      {
        throw PlanFileError(
          line: countsLine,
          "flow '\(flow.id)' counts on '\(unknown)', which is not one of its questions")
      }
      if flow.counts == .requiredAnswered, !flow.questions.contains(where: \.required) {
        throw PlanFileError(
          line: countsLine,
          "flow '\(flow.id)' counts when its required questions are answered, and none is required")
      }
    }
    plan.slots = slots
    plan.challenges = challenges
    plan.flows = flows.map(\.definition)
    // a challenge question takes the plan's challenges, so the plan needs some
    for (index, flow) in plan.flows.enumerated() {
      for (q, question) in flow.questions.enumerated() {
        guard case .challenge = question.kind else { continue }
        guard !challenges.isEmpty else {
          throw PlanFileError(
            line: flows[index].line,
            "question '\(question.id)' is a challenge, and the plan has no [[challenge]]")
        }
        plan.flows[index].questions[q].kind = .challenge(ids: challenges.map(\.id))
      }
    }
    return plan
  }

  private static func flow(_ reader: inout TableReader, reservedWords: Set<String>)
    throws(PlanFileError) -> FlowDefinition
  {
    let id = try reader.id("id")
    let word = try reader.text("word", max: 24) ?? id
    guard FlowDefinition.isWord(word) else {
      throw PlanFileError(
        line: reader.lineOf("word"),
        "'\(word)' is not a word: a lowercase letter, then letters, digits and '-'")
    }
    guard !reservedWords.contains(word) else {
      throw PlanFileError(
        line: reader.lineOf("word"),
        "'\(word)' is taken (a nudge command, or a flow of another plan); choose another word (\"word = ...\")"
      )
    }
    let counts: FlowDefinition.CountRule
    switch reader.take("counts") {
    case nil, .text("required")?: counts = .requiredAnswered
    case .text("any")?: counts = .anyAnswer
    case .list(let ids)?:
      guard !ids.isEmpty else {
        throw PlanFileError(
          line: reader.lineOf("counts"), "counts lists at least one question id (or is \"any\")")
      }
      counts = .anyOf(ids)
    case let other?:
      throw PlanFileError(
        line: reader.lineOf("counts"),
        "counts is \"required\", \"any\" or a list of question ids, not \(other.kind)")
    }
    return FlowDefinition(
      id: id, word: word, title: try reader.line("title"), slot: try reader.text("slot", max: 32),
      reminder: try reader.text("reminder", max: maxLine), questions: [], counts: counts,
      first: try reader.line("first"),
      saved: try reader.text("saved", max: maxLine) ?? "Saved.")
  }

  private static let kinds = [
    "yes-no", "one-of", "several-of", "text", "number", "time", "challenge",
  ]

  private static func question(_ reader: inout TableReader, after earlier: [Question])
    throws(PlanFileError) -> Question
  {
    let id = try reader.id("id")
    guard !earlier.contains(where: { $0.id == id }) else {
      throw PlanFileError(line: reader.lineOf("id"), "question '\(id)' is there twice in this flow")
    }
    let kindName = try reader.line("kind")
    let kind: Question.Kind
    switch kindName {
    case "yes-no": kind = .yesNo
    case "one-of", "several-of":
      let ids = try reader.list("options", required: true)
      guard !ids.isEmpty, ids.count <= maxOptions else {
        throw PlanFileError(
          line: reader.lineOf("options"), "options holds 1 to \(maxOptions) ids")
      }
      for option in ids where !TableReader.isID(option) {
        throw PlanFileError(
          line: reader.lineOf("options"),
          "'\(option)' is not an option id: lowercase letters, digits, '-' and '_', 32 at most")
      }
      guard Set(ids).count == ids.count else {
        throw PlanFileError(line: reader.lineOf("options"), "an option is listed twice")
      }
      let labels = try reader.list("labels", required: false)
      guard labels.isEmpty || labels.count == ids.count else {
        throw PlanFileError(
          line: reader.lineOf("labels"), "labels has one label per option (\(ids.count))")
      }
      for label in labels where label.count > maxLine {
        throw PlanFileError(line: reader.lineOf("labels"), "a label is over \(maxLine) characters")
      }
      let options = ids.enumerated().map { i, option in
        Question.Option(id: option, label: labels.isEmpty ? option : labels[i])
      }
      kind = kindName == "one-of" ? .oneOf(options) : .severalOf(options)
    case "text":
      kind = .text(maxLength: try reader.number("max_length", in: 1...1000) ?? 1000)
    case "number":
      let low = try reader.number("min", in: -1_000_000...1_000_000) ?? 0
      let high = try reader.number("max", in: -1_000_000...1_000_000) ?? 1_000_000
      guard low <= high else {
        throw PlanFileError(line: reader.lineOf("max"), "max (\(high)) is below min (\(low))")
      }
      kind = .number(unit: try reader.text("unit", max: 24), min: low, max: high)
    case "time": kind = .timeOfDay
    case "challenge": kind = .challenge(ids: [])  // the ids once the whole file is read
    default:
      throw PlanFileError(
        line: reader.lineOf("kind"),
        "kind '\(kindName)' is not one of \(kinds.joined(separator: ", "))")
    }
    var when: Question.Condition? = nil
    if let condition = try reader.text("when", max: 80) {
      when = try Self.condition(condition, key: "when", reader, after: earlier)
    }
    let past = try reader.text("past", max: maxLine)
    if let past, past.utf8.contains(0x0A) {
      throw PlanFileError(line: reader.lineOf("past"), "past is one line (no \\n)")
    }
    let conditions = try reader.list("when_answered", required: false)
    let asks = try reader.list("then_ask", required: false)
    guard conditions.count == asks.count, conditions.count <= maxRewordings else {
      throw PlanFileError(
        line: reader.lineOf("then_ask"),
        "then_ask holds the words for each of when_answered's answers, \(maxRewordings) at most")
    }
    var rewordings: [Question.Rewording] = []
    for (condition, ask) in zip(conditions, asks) {
      let when = try Self.condition(condition, key: "when_answered", reader, after: earlier)
      switch earlier.first(where: { $0.id == when.question })?.kind {
      case .yesNo?, .oneOf?: break
      default:
        throw PlanFileError(
          line: reader.lineOf("when_answered"),
          "when_answered names a yes-no or one-of question, and '\(when.question)' is neither")
      }
      guard !ask.isEmpty, ask.count <= maxLine, !ask.utf8.contains(0x0A) else {
        throw PlanFileError(
          line: reader.lineOf("then_ask"),
          "each of then_ask is one line of 1 to \(maxLine) characters")
      }
      rewordings.append(Question.Rewording(when: when, ask: ask))
    }
    let offered = try reader.text("offer", max: maxLine)
    if let offered, !kind.allows(offered) {
      throw PlanFileError(
        line: reader.lineOf("offer"), "'\(offered)' is not an answer question '\(id)' can have")
    }
    var suggests: Question.NightTime? = nil
    if let suggest = try reader.text("suggest", max: 16) {
      guard case .timeOfDay = kind, let night = Question.NightTime(rawValue: suggest) else {
        throw PlanFileError(
          line: reader.lineOf("suggest"),
          "suggest is \"bedtime\" or \"wake\", on a question of kind time")
      }
      suggests = night
    }
    return Question(
      id: id, ask: try reader.line("ask"), kind: kind,
      required: try reader.flag("required") ?? false, offered: offered, when: when,
      suggests: suggests, past: past, rewordings: rewordings)
  }

  /// The most rewordings a question has (`when_answered`, `then_ask`).
  static let maxRewordings = 8

  /// A `"QUESTION=ANSWER"` condition on an earlier question of the flow, under `key`.
  private static func condition(
    _ text: String, key: String, _ reader: TableReader, after earlier: [Question]
  ) throws(PlanFileError) -> Question.Condition {
    let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2, let source = earlier.first(where: { $0.id == parts[0] }) else {
      throw PlanFileError(
        line: reader.lineOf(key),
        "\(key) is \"QUESTION=ANSWER\" naming an earlier question of this flow")
    }
    guard source.kind.allows(parts[1]), !parts[1].contains(",") else {
      throw PlanFileError(
        line: reader.lineOf(key), "'\(parts[1])' is not an answer '\(parts[0])' can have")
    }
    return Question.Condition(question: parts[0], answer: parts[1])
  }
}

extension Question.Kind {
  /// Whether `answer`, as typed on the command line (`--answer ID=VALUE`), is one this kind
  /// takes.
  public func allows(_ answer: String) -> Bool {
    switch self {
    case .yesNo: return answer == "yes" || answer == "no"
    case .oneOf(let options): return options.contains { $0.id == answer }
    case .severalOf(let options):
      let picked = answer.split(separator: ",").map(String.init)
      return !picked.isEmpty && picked.allSatisfy { id in options.contains { $0.id == id } }
    case .text(let maxLength):
      // one line of plain text, as a coach flow's text is (FreeText): no control character
      return !answer.isEmpty && answer.count <= maxLength && answer.utf8.count <= maxLength * 8
        && !answer.unicodeScalars.contains {
          $0.properties.generalCategory == .control || VisibleText.isHostile($0)
        }
    case .number(_, let low, let high):
      return Int(answer).map { (low...high).contains($0) } ?? false
    case .challenge(let ids): return ids.contains(answer)
    case .timeOfDay:
      let parts = answer.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
        parts.allSatisfy({ $0.allSatisfy(\.isNumber) }),
        let hour = Int(parts[0]), let minute = Int(parts[1])
      else { return false }
      return (0...23).contains(hour) && (0...59).contains(minute)
    }
  }
}

extension PlanFile {
  /// The line of `[plan]`'s `name` in `text` (1 when it cannot be found), for an error about
  /// the name that only the catalogue can see (two plans of one name).
  public static func nameLine(in text: String) -> Int {
    let tables = try? PlanText.tables(text)
    return tables?.first { $0.name == "plan" }?.entries.first { $0.key == "name" }?.line ?? 1
  }
}
