/// Every entry as a spreadsheet (`nudge export --csv`): RFC 4180 text that LibreOffice and
/// other spreadsheets open as is — a header row, then one row per entry (help notes too):
/// its day, its flow, when it was saved, then a column per answer.
public enum EntriesSpreadsheet {
  /// The columns every row starts with, before the answers.
  public static let leadingColumns = ["day", "flow", "saved_at"]

  /// The UTF-8 byte order mark the text starts with, so a spreadsheet reads it as UTF-8
  /// whatever character set it would otherwise guess.
  public static let byteOrderMark = "\u{FEFF}"

  /// The answer columns: every answer id `entries` hold, those `questionOrder` names first and
  /// in its order (the order the plans ask them), then the rest by name.
  public static func answerColumns(of entries: [StoredEntry], questionOrder: [String]) -> [String] {
    let held = Set(entries.flatMap(\.answers.keys))
    let known = questionOrder.filter(held.contains)
    return known + held.subtracting(known).sorted()
  }

  /// The whole document: the byte order mark, the header row and one row per entry, in the
  /// order given; every line ends with CRLF. A missing answer is an empty field.
  public static func csv(_ entries: [StoredEntry], questionOrder: [String]) -> String {
    let answers = answerColumns(of: entries, questionOrder: questionOrder)
    var text = byteOrderMark + row(leadingColumns + answers)
    for entry in entries {
      text += row(
        [entry.day.description, entry.flow, entry.savedAt]
          + answers.map { entry.answers[$0] ?? "" })
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

extension PlanCatalogue {
  /// Every question id the plans define, in the order they ask them (plan by plan, flow by
  /// flow), each once.
  public var questionOrder: [String] {
    var seen: Set<String> = []
    return entries.flatMap { $0.plan.flows.flatMap(\.questions) }.map(\.id).filter {
      seen.insert($0).inserted
    }
  }
}
