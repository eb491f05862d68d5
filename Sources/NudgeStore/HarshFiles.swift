import NudgeCore

/// harsh's two files (github.com/wakatara/harsh, internal/storage): `habits`, a line a habit
/// (`Name: frequency`; `! Heading` lines and `#` comments between), and `log`, a line a day's
/// outcome (`YYYY-MM-DD : Habit : y|n|s : comment : amount`, the last two optional), read as
/// the backup they stand for, so `LoopImport` maps them as it maps Loop's.
///
/// A frequency is `N` (once in N days; 1 daily, 7 weekly, 0 tracking only, which Nudge keeps
/// daily), `T/N` (T times in N days) or `Nw` (once in N weeks). `y` is a check, `n` a no, `s`
/// a skip; the comment is the day's note; a habit with an amount other than 0 is measurable
/// (harsh has no target: 1 a day, said in the summary). A later line for the same day and
/// habit replaces an earlier one, as harsh reads it; the lines of habits no longer in the
/// habits file are left out and counted.
public enum HarshFiles {
  /// What was read, and how many log lines were of habits the habits file no longer lists.
  public struct Read: Sendable {
    public var backup: LoopBackup
    public var leftOut: Int
    /// Notes on what was brought near (a tracking-only habit kept daily).
    public var notes: [String]
  }

  /// The habits of `habits` and their days from `log`; an error names the file, the line and
  /// what is wrong, and nothing is taken.
  public static func read(habits: String, log: String) throws(InputError) -> Read {
    var listed: [LoopBackup.Habit] = []
    var notes: [String] = []
    var index: [String: Int] = [:]
    for (number, raw) in lines(habits) {
      let line = raw.trimmingSpaces
      guard !line.isEmpty, !line.hasPrefix("#"), !line.hasPrefix("!") else { continue }
      guard let colon = line.firstRange(of: ": ") else {
        throw InputError("habits line \(number) is not 'Name: frequency'")
      }
      let name = String(line[..<colon.lowerBound]).trimmingSpaces
      let frequency = String(line[colon.upperBound...]).trimmingSpaces
      guard !name.isEmpty else { throw InputError("habits line \(number) has no name") }
      guard index[name] == nil else {
        throw InputError("habits line \(number): '\(VisibleText.escaped(name))' is listed twice")
      }
      guard let (times, days) = ratio(frequency) else {
        throw InputError(
          "habits line \(number): '\(VisibleText.escaped(String(frequency.prefix(20))))' is not a frequency harsh reads (1, 7, 3/7, 2w, 0)"
        )
      }
      if times == 0 {
        notes.append(
          "'\(VisibleText.escaped(name))' is tracked only in harsh (0); Nudge keeps it daily")
      }
      index[name] = listed.count
      listed.append(
        LoopBackup.Habit(
          name: name, numerator: max(1, times), denominator: times == 0 ? 1 : days,
          position: listed.count + 1))
    }
    var byHabit: [Int: [Day: (LoopBackup.Mark.Kind, String?, Double)]] = [:]
    var leftOut = 0
    for (number, raw) in lines(log) {
      guard !raw.isEmpty, !raw.hasPrefix("#") else { continue }
      let fields = raw.split(separator: " : ", omittingEmptySubsequences: false).map(String.init)
      let place = "log line \(number)"
      guard (3...5).contains(fields.count) else {
        throw InputError(
          "\(place) has \(fields.count) fields; harsh writes 'YYYY-MM-DD : Habit : y|n|s : comment : amount'"
        )
      }
      guard let day = Day(fields[0].trimmingSpaces) else {
        throw InputError(
          "\(place): '\(VisibleText.escaped(String(fields[0].prefix(20))))' is not a day (YYYY-MM-DD)"
        )
      }
      guard day >= LoopBackup.earliestDay, day <= Day(year: 2199, month: 12, day: 31) else {
        throw InputError("\(place): \(day) is before \(LoopBackup.earliestDay) or after 2199")
      }
      let kind: LoopBackup.Mark.Kind
      switch fields[2].trimmingSpaces {
      case "y": kind = .done(1)
      case "n": kind = .failed
      case "s": kind = .skipped
      default:
        throw InputError(
          "\(place): '\(VisibleText.escaped(String(fields[2].prefix(20))))' is not y, n or s")
      }
      var amount = 0.0
      if fields.count == 5, !fields[4].trimmingSpaces.isEmpty {
        guard let read = Double(fields[4].trimmingSpaces), read.isFinite, read >= 0,
          read <= Double(NudgeCore.Habit.maxAmount)
        else {
          throw InputError(
            "\(place): the amount '\(VisibleText.escaped(String(fields[4].prefix(20))))' is not a number from 0 to \(NudgeCore.Habit.maxAmount)"
          )
        }
        amount = read
      }
      guard let habit = index[fields[1].trimmingSpaces] ?? index[fields[1]] else {
        leftOut += 1
        continue
      }
      let note = fields.count >= 4 ? fields[3].trimmingSpaces : ""
      byHabit[habit, default: [:]][day] = (kind, note.isEmpty ? nil : note, amount)
    }
    for (i, days) in byHabit {
      let measurable = days.values.contains { $0.2 != 0 }
      listed[i].isMeasurable = measurable
      listed[i].marks = days.sorted { $0.key < $1.key }.map { day, entry in
        let kind: LoopBackup.Mark.Kind =
          if measurable, case .done = entry.0 { .done(entry.2) } else { entry.0 }
        return LoopBackup.Mark(day: day, kind: kind, note: entry.1)
      }
    }
    return Read(backup: LoopBackup(habits: listed, source: "harsh"), leftOut: leftOut, notes: notes)
  }

  /// harsh's frequency as times in days: `N` once in N days (0: tracking, 0 in 1), `T/N`,
  /// `Nw` once in N weeks; nil for anything else or a count over 365 days.
  static func ratio(_ text: String) -> (Int, Int)? {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    if parts.count == 2 {
      guard let times = Int(parts[0].trimmingSpaces), let days = Int(parts[1].trimmingSpaces),
        (1...365).contains(days), (1...days).contains(times)
      else { return nil }
      return (times, days)
    }
    if text.hasSuffix("w"), let weeks = Int(text.dropLast()), (1...52).contains(weeks) {
      return (1, weeks * 7)
    }
    guard let days = Int(text), (0...365).contains(days) else { return nil }
    return days == 0 ? (0, 1) : (1, days)
  }

  /// The lines of `text` and their numbers (from 1): a byte order mark dropped, CRLF or LF.
  static func lines(_ text: String) -> [(Int, String)] {
    var scalars = text.unicodeScalars[...]
    if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
    // by scalars: a CRLF is one Character, which a split on "\n" would not see
    return scalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
      let line = $0.element.last == "\r" ? $0.element.dropLast() : $0.element
      return ($0.offset + 1, String(String.UnicodeScalarView(line)))
    }
  }

}
