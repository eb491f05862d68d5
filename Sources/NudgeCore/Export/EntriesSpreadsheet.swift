/// Every entry as a spreadsheet (`nudge export --csv`): RFC 4180 text that LibreOffice and
/// other spreadsheets open as is — a header row, then one row per entry (help notes too) and
/// per habit day: its day, its flow (`habit` for a habit's day), when it was saved, then a
/// column per answer, and the habit's name, state (done, skipped, failed), amount and note.
public enum EntriesSpreadsheet {
  /// The columns every row starts with, before the answers.
  public static let leadingColumns = ["day", "flow", "saved_at"]

  /// The columns a habit's day fills (after the answers, when there are habit days).
  public static let habitColumns = [
    "habit", "habit_state", "habit_amount", "habit_unit", "habit_note",
  ]

  /// The UTF-8 byte order mark the text starts with, so a spreadsheet reads it as UTF-8
  /// whatever character set it would otherwise guess.
  public static let byteOrderMark = "\u{FEFF}"

  /// An answer column: a question's id, with its flow's word when more than one flow asks a
  /// question of that id (the Morning Focus's `challenge` and the sleep plan's are two
  /// columns, `review.challenge` and `sleep.challenge`, never one).
  public struct Column: Equatable, Sendable {
    /// The flow whose answers it holds; nil: every flow's answer of `id` (only one asks it).
    public var flow: String?
    public var id: String

    public init(flow: String? = nil, _ id: String) {
      self.flow = flow
      self.id = id
    }

    public var header: String { flow.map { "\($0).\(id)" } ?? id }

    func value(_ entry: StoredEntry) -> String {
      guard flow == nil || flow == entry.flow else { return "" }
      return entry.answers[id] ?? ""
    }
  }

  /// A habit's recorded day, as a row says it.
  public struct HabitDay: Equatable, Sendable {
    public var habit: String
    public var unit: String?
    public var check: HabitCheck

    public init(habit: String, unit: String?, check: HabitCheck) {
      self.habit = habit
      self.unit = unit
      self.check = check
    }
  }

  /// The answer columns: every answer id `entries` hold, those `questions` names first and in
  /// its order (the order the plans ask them), then the rest by name; an id more than one flow
  /// asks or answers is a column per flow.
  public static func answerColumns(of entries: [StoredEntry], questions: [AskedQuestion])
    -> [Column]
  {
    var flowsOf: [String: Set<String>] = [:]
    for question in questions { flowsOf[question.id, default: []].insert(question.flow) }
    for entry in entries {
      for id in entry.answers.keys { flowsOf[id, default: []].insert(entry.flow) }
    }
    var held: [Column] = []
    var seen: Set<String> = []
    for entry in entries {
      for id in entry.answers.keys {
        let column = Column(flow: (flowsOf[id]?.count ?? 0) > 1 ? entry.flow : nil, id)
        if seen.insert(column.header).inserted { held.append(column) }
      }
    }
    let order = questions.flatMap { question in
      [Column(flow: question.flow, question.id), Column(question.id)]
    }.map(\.header)
    let known = order.compactMap { header in held.first { $0.header == header } }
    var listed = Set(known.map(\.header))
    let rest = held.filter { listed.insert($0.header).inserted }.sorted { $0.header < $1.header }
    return known + rest
  }

  /// The whole document: the byte order mark, the header row and one row per entry and per
  /// habit day, by day (a day's entries in the order given, then its habit days); every line
  /// ends with CRLF. A missing answer is an empty field.
  public static func csv(
    _ entries: [StoredEntry], questions: [AskedQuestion], habitDays: [HabitDay] = []
  ) -> String {
    let answers = answerColumns(of: entries, questions: questions)
    let habits = habitDays.isEmpty ? [] : habitColumns
    var text = byteOrderMark + row(leadingColumns + answers.map(\.header) + habits)
    var rows: [(day: Day, fields: [String])] = entries.map { entry in
      (
        entry.day,
        [entry.day.description, entry.flow, entry.savedAt] + answers.map { $0.value(entry) }
          + habits.map { _ in "" }
      )
    }
    rows += habitDays.map { day in
      (
        day.check.day,
        [day.check.day.description, "habit", day.check.savedAt] + answers.map { _ in "" } + [
          day.habit, day.check.mark.rawValue, day.check.value.map(String.init) ?? "",
          day.check.value == nil ? "" : day.unit ?? "", day.check.note ?? "",
        ]
      )
    }
    // by day, each day's rows in the order they came (a stable sort)
    for (_, fields) in rows.enumerated().sorted(by: {
      ($0.element.day, $0.offset) < ($1.element.day, $1.offset)
    }).map(\.element) {
      text += row(fields)
    }
    return text
  }

  /// One record: each field guarded and quoted as it needs, commas between, CRLF after.
  static func row(_ fields: [String]) -> String {
    fields.map { quoted(guarded($0)) }.joined(separator: ",") + "\r\n"
  }

  /// RFC 4180: a field holding a comma, a double quote, CR or LF goes in double quotes, its
  /// double quotes doubled; any other field as it is.
  static func quoted(_ field: String) -> String {
    guard field.unicodeScalars.contains(where: { ",\"\r\n".unicodeScalars.contains($0) }) else {
      return field
    }
    return "\"" + field.replacing("\"", with: "\"\"") + "\""
  }

  /// The characters a spreadsheet may take as the start of a formula when a cell begins with
  /// one (`=`, `+`, `-`, `@`, and a tab or CR before them).
  static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

  /// A cell that begins like a formula gets a leading `'`, so a typed `=HYPERLINK(…)` stays
  /// text in the spreadsheet (CSV formula injection); a plain number (`-3`, `+2.5`) stays a
  /// number.
  static func guarded(_ field: String) -> String {
    guard let first = field.unicodeScalars.first, formulaStarts.contains(first),
      !isPlainNumber(field)
    else { return field }
    return "'" + field
  }

  /// Whether `text` is a sign, then digits, with at most one decimal point between them.
  static func isPlainNumber(_ text: String) -> Bool {
    var digits = Substring(text)
    if let sign = digits.first, sign == "-" || sign == "+" { digits = digits.dropFirst() }
    let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
    return (1...2).contains(parts.count)
      && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
  }
}

/// A question a plan asks, by its flow's word and its id.
public struct AskedQuestion: Equatable, Sendable {
  public var flow: String
  public var id: String

  public init(flow: String, id: String) {
    self.flow = flow
    self.id = id
  }
}

extension PlanCatalogue {
  /// Every question the plans define, in the order they ask them (plan by plan, flow by
  /// flow).
  public var questionsAsked: [AskedQuestion] {
    entries.flatMap { entry in
      entry.plan.flows.flatMap { flow in
        flow.questions.map { AskedQuestion(flow: flow.word, id: $0.id) }
      }
    }
  }
}
