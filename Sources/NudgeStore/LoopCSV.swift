import NudgeCore

/// Loop Habit Tracker's CSV export (*Export as CSV*: a zip of `Habits.csv` and, for each habit,
/// `NNN Name/Checkmarks.csv`) read as the backup it stands for, so `LoopImport` maps both the
/// same way; and the same shapes written back from Nudge's habits (`write`).
///
/// `Habits.csv`: `Position,Name,Question,Description,NumRepetitions,Interval,Color` (older
/// Loops: without `Question`), the position written `001`. A habit's `Checkmarks.csv`:
/// `Date,Value` and, from Loop 2.1, `Notes`; a value is a name (`YES_MANUAL`, `YES_AUTO`, `NO`,
/// `SKIP`, `UNKNOWN`: Loop 2's `Entry.formattedValue`) or, as older Loops wrote every value
/// and Loop 2 still writes a measurable habit's, a whole number: thousandths of the amount for
/// a measurable habit, 2 done, 1 done by Loop's fill-in, 0 nothing for a yes/no one. The CSV
/// says neither a habit's kind nor its target and unit: a habit with an amount other than
/// those codes is measurable, its target 1 unit a day (said in the summary).
public enum LoopCSV {
  /// The most bytes of one CSV file read.
  public static let maxFileBytes = 64 << 20

  /// The habits of the export whose files are `files` (path inside it → text). An error names
  /// the file, the line and what is wrong.
  public static func read(_ files: [String: String]) throws(InputError) -> LoopBackup {
    guard let list = files["Habits.csv"] else {
      throw InputError("it holds no Habits.csv: not a Loop CSV export (Export as CSV in Loop)")
    }
    let rows = try rowsOf(list, file: "Habits.csv")
    guard let header = rows.first?.fields, header.contains("Position"), header.contains("Name")
    else {
      throw InputError(
        "Habits.csv line 1 is not Loop's header (Position,Name,Question,Description,NumRepetitions,Interval,Color)"
      )
    }
    let column = { (name: String) in header.firstIndex(of: name) }
    var habits: [LoopBackup.Habit] = []
    var positions = Set<Int>()
    for row in rows.dropFirst() {
      let place = "Habits.csv line \(row.line)"
      func field(_ name: String) -> String? {
        column(name).flatMap { $0 < row.fields.count ? row.fields[$0] : nil }
      }
      guard row.fields.count == header.count else {
        throw InputError(
          "\(place) has \(row.fields.count) fields, not the \(header.count) its header names")
      }
      guard let position = field("Position").flatMap({ Int($0) }), (1...999).contains(position),
        positions.insert(position).inserted
      else { throw InputError("\(place): its Position is not a new number from 001 to 999") }
      let numerator = try count(field("NumRepetitions"), place, "NumRepetitions")
      let denominator = try count(field("Interval"), place, "Interval")
      let file = checkmarksFile(of: position, in: files)
      let marks = try file.map { path throws(InputError) in
        try self.marks(files[path] ?? "", file: path)
      }
      let measurable = marks?.contains { $0.measurable } ?? false
      // Loop 1 had no question: its description was the question it asked
      let question = column("Question") == nil ? field("Description") : field("Question")
      habits.append(
        LoopBackup.Habit(
          name: field("Name") ?? "", question: question ?? "",
          description: column("Question") == nil ? "" : field("Description") ?? "",
          numerator: numerator,
          denominator: denominator, isMeasurable: measurable, position: position,
          marks: (marks ?? []).compactMap { $0.mark(measurable: measurable) }))
    }
    return LoopBackup(habits: habits)
  }

  /// The rows of `text`, or the CSV error with the file's name.
  static func rowsOf(_ text: String, file: String) throws(InputError) -> [CSVText.Row] {
    do { return try CSVText.rows(text) } catch {
      throw InputError("\(file) \(error.message)")
    }
  }

  /// A frequency's count (1 when absent), 1 to 365.
  static func count(_ text: String?, _ place: String, _ name: String) throws(InputError) -> Int {
    guard let text, !text.isEmpty else { return 1 }
    guard let n = Int(text), (1...365).contains(n) else {
      throw InputError("\(place): \(name) '\(VisibleText.escaped(text))' is not 1 to 365")
    }
    return n
  }

  /// The path of the habit at `position`'s `Checkmarks.csv` ("001 Meditate/Checkmarks.csv").
  static func checkmarksFile(of position: Int, in files: [String: String]) -> String? {
    let prefix =
      String(repeating: "0", count: max(0, 3 - String(position).count))
      + String(position)
    return files.keys.sorted().first {
      let parts = $0.split(separator: "/")
      return parts.count == 2 && parts[1] == "Checkmarks.csv"
        && (parts[0] == prefix || parts[0].hasPrefix(prefix + " "))
    }
  }

  /// One row of a habit's file, before the habit's kind is known.
  struct Row {
    var day: Day
    var value: Int?
    var named: String?
    var note: String?

    /// Whether the value is an amount only a measurable habit has.
    var measurable: Bool { named == nil && value.map { !(-1...3).contains($0) } ?? false }

    func mark(measurable: Bool) -> LoopBackup.Mark? {
      let note = note.flatMap { $0.isEmpty ? nil : $0 }
      let code =
        value
        ?? ["YES_MANUAL": 2, "YES_AUTO": 1, "NO": 0, "SKIP": 3, "UNKNOWN": -1][named ?? ""] ?? -1
      let kind: LoopBackup.Mark.Kind?
      switch (measurable, code, named) {
      case (_, -1, _): kind = nil
      case (_, 3, _): kind = .skipped
      case (true, _, _): kind = .done(Double(code) / 1000)
      case (false, 2, _): kind = .done(1)
      case (false, 0, "NO"): kind = .failed
      default: kind = nil  // a fill-in (YES_AUTO), or an old Loop's 0: nothing marked
      }
      return kind.map { LoopBackup.Mark(day: day, kind: $0, note: note) }
    }
  }

  /// The rows of a habit's `Checkmarks.csv`, oldest first: Loop 2's, under its header
  /// `Date,Value,Notes`, or Loop 1's, `date,value` lines with no header.
  static func marks(_ text: String, file: String) throws(InputError) -> [Row] {
    var rows = try rowsOf(text, file: file)
    let headerless = rows.first.map { Day($0.fields[0]) != nil && $0.fields.count == 2 } ?? false
    if headerless { rows.insert(CSVText.Row(line: 0, fields: ["Date", "Value"]), at: 0) }
    guard let header = rows.first?.fields, header.first == "Date", header.count >= 2,
      header[1] == "Value"
    else { throw InputError("\(file) line 1 is not Loop's header (Date,Value,Notes)") }
    var seen = Set<Day>()
    var found: [Row] = []
    for row in rows.dropFirst() {
      let place = "\(file) line \(row.line)"
      guard row.fields.count == header.count else {
        throw InputError(
          "\(place) has \(row.fields.count) fields, not the \(header.count) its header names")
      }
      guard let day = Day(row.fields[0]), day >= LoopBackup.earliestDay,
        day <= Day(year: 2199, month: 12, day: 31)
      else {
        throw InputError(
          "\(place): '\(VisibleText.escaped(String(row.fields[0].prefix(40))))' is not a day from \(LoopBackup.earliestDay) (YYYY-MM-DD)"
        )
      }
      guard seen.insert(day).inserted else { throw InputError("\(place): \(day) is there twice") }
      let text = row.fields[1]
      let names: Set<String> = ["YES_MANUAL", "YES_AUTO", "NO", "SKIP", "UNKNOWN"]
      guard names.contains(text) || (Int32(text).map { $0 >= -1 } ?? false) else {
        throw InputError(
          "\(place): the value '\(VisibleText.escaped(String(text.prefix(40))))' is not one Loop writes (YES_MANUAL, YES_AUTO, NO, SKIP, UNKNOWN or a whole number)"
        )
      }
      found.append(
        Row(
          day: day, value: Int32(text).map(Int.init), named: names.contains(text) ? text : nil,
          note: header.count > 2 ? row.fields[2] : nil))
    }
    return found.sorted { $0.day < $1.day }
  }
}
