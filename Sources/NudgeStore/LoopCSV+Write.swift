import NudgeCore

extension LoopCSV {
  /// The colour every habit gets in `Habits.csv` (Nudge keeps none): Loop's grey.
  static let color = "#757575"

  /// Nudge's habits in the shapes Loop's *Export as CSV* writes (path inside → text), which
  /// `read` takes back: `Habits.csv`; for each habit `NNN Name/Checkmarks.csv` (`Date,Value,
  /// Notes`, newest first, as Loop lists them); `Checkmarks.csv`, a day a row and a habit a
  /// column from the oldest recorded day through `today`; and `HabitBull.csv`, the one CSV
  /// Loop itself imports (*Import data*), its skips left out (HabitBull has none). Lines end
  /// with LF and a field is quoted only when it must be, as Loop's CSVWriter does.
  public static func write(_ habits: [(habit: NudgeCore.Habit, checks: [HabitCheck])], today: Day)
    -> [String: String]
  {
    var files: [String: String] = [:]
    var list = line(
      ["Position", "Name", "Question", "Description", "NumRepetitions", "Interval", "Color"])
    var bull = line(
      ["HabitName", "HabitDescription", "HabitCategory", "CalendarDate", "Value", "CommentText"])
    for (index, (habit, checks)) in habits.enumerated() {
      let position =
        String(repeating: "0", count: max(0, 3 - String(index + 1).count))
        + String(index + 1)
      let (numerator, denominator) = habit.every.loopRatio
      list += line([
        position, habit.name, habit.question, "", String(numerator), String(denominator), color,
      ])
      var marks = line(["Date", "Value", "Notes"])
      for check in checks.sorted(by: { $0.day > $1.day }) {
        marks += line([check.day.description, value(check, habit), check.note ?? ""])
      }
      files["\(position) \(folderName(habit.name))".trimmingSpaces + "/Checkmarks.csv"] = marks
      for check in checks.sorted(by: { $0.day < $1.day }) where !check.isSkip {
        let amount =
          check.failed ? 0 : habit.isMeasurable ? min(Int(Int32.max), (check.value ?? 0) * 1000) : 1
        bull += line([
          habit.name, habit.question, "", check.day.description, String(amount), check.note ?? "",
        ])
      }
    }
    files["Habits.csv"] = list
    files["HabitBull.csv"] = bull
    files["Checkmarks.csv"] = table(habits, today: today)
    return files
  }

  /// A check as Loop's `Entry.formattedValue` writes it: a code's name, or the amount in
  /// thousandths.
  static func value(_ check: HabitCheck, _ habit: NudgeCore.Habit) -> String {
    switch check.mark {
    case .skipped: return "SKIP"
    case .failed: return "NO"
    case .done:
      guard habit.isMeasurable else { return "YES_MANUAL" }
      let thousandths = min(Int(Int32.max), (check.value ?? 0) * 1000)
      return thousandths == 0 ? "NO" : String(thousandths)
    }
  }

  /// Loop's `Checkmarks.csv` of every habit: `Date,` then each habit's name and a comma; a row
  /// a day, newest first, each habit's value and a comma (`UNKNOWN`: nothing recorded).
  static func table(_ habits: [(habit: NudgeCore.Habit, checks: [HabitCheck])], today: Day)
    -> String
  {
    var text = "Date," + habits.map { field($0.habit.name) + "," }.joined() + "\n"
    let byDay = habits.map { Dictionary($0.checks.map { ($0.day, $0) }, uniquingKeysWith: { $1 }) }
    guard let oldest = habits.flatMap({ $0.checks.map(\.day) }).min(), oldest <= today else {
      return text
    }
    var day = today
    while day >= oldest {
      text += day.description + ","
      for (index, (habit, _)) in habits.enumerated() {
        text += (byDay[index][day].map { value($0, habit) } ?? "UNKNOWN") + ","
      }
      text += "\n"
      day = day.adding(days: -1)
    }
    return text
  }

  /// A habit's folder name as Loop's `sanitizeFilename` makes it: only letters and digits of
  /// ASCII, spaces, `.`, `_` and `-` kept, at most 100.
  static func folderName(_ name: String) -> String {
    String(
      String.UnicodeScalarView(
        name.unicodeScalars.filter {
          $0.isASCII
            && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
              || " ._-".unicodeScalars.contains($0))
        }
      ).prefix(100))
  }

  /// One record, each field quoted only when it holds a comma, a quote or a line end.
  static func line(_ fields: [String]) -> String { fields.map(field).joined(separator: ",") + "\n" }

  static func field(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
      return text
    }
    return "\"" + text.replacing("\"", with: "\"\"") + "\""
  }
}
