/// A week looked back on (`nudge week`): seven days summed up as a person would want them, in a
/// few short lines, and compared with the seven days before.
public struct WeekSummary: Encodable, Equatable, Sendable {
  public var first: Day
  public var last: Day
  public var daysDone: Int
  public var prep: Int
  public var review: Int
  public var checkin: Int
  public var cravings: Int
  /// Prep items not ready, most often missing first, with how many evenings.
  public var prepMissing: [ItemCount]
  /// Check-ins that answered the swap question, and how many said it was followed.
  public var swapsAnswered: Int
  public var swapsFollowed: Int
  /// Cravings by category, most first.
  public var cravingsByCategory: [CategoryCount]
  /// Cravings by part of the day (night before 05:00, morning before 12:00, afternoon to 17:00,
  /// evening after).
  public var cravingsByTime: [String: Int]
  /// When the most common kind of craving came: the part of the day most of them did, and
  /// whether all did.
  public var topCravingTime: PartOfDay? = nil

  public struct PartOfDay: Encodable, Equatable, Sendable {
    public var part: String
    public var all: Bool
  }
  /// The commitments made, "I will … instead of …", in order.
  public var commitments: [String]
  /// The seven days before: days done and cravings, to compare.
  public var previousDaysDone: Int
  public var previousCravings: Int

  public struct ItemCount: Encodable, Equatable, Sendable {
    public var item: PrepItem
    public var count: Int
  }

  public struct CategoryCount: Encodable, Equatable, Sendable {
    public var category: HelpCategory
    public var count: Int
  }

  /// Sums up `days` (oldest first, a week's or the days of this one so far) against `before`
  /// (the week before).
  public init(days: [HistoryDay], before: [HistoryDay]) {
    first = days.first?.date ?? Day(ordinal: 0)
    last = days.last?.date ?? Day(ordinal: 0)
    daysDone = days.filter(\.isDone).count
    prep = days.filter { $0.prep != nil }.count
    review = days.filter { $0.review != nil }.count
    checkin = days.filter { $0.checkin != nil }.count
    cravings = days.reduce(0) { $0 + $1.help.count }
    let preps = days.compactMap(\.prep)
    prepMissing = PrepItem.allCases.map { item in
      ItemCount(item: item, count: preps.filter { !$0[item] }.count)
    }.filter { $0.count > 0 }.sorted { $0.count > $1.count }
    let answered = days.compactMap { $0.checkin?.followed }
    swapsAnswered = answered.count
    swapsFollowed = answered.filter { $0 }.count
    let notes = days.flatMap(\.help)
    cravingsByCategory = HelpCategory.allCases.map { category in
      CategoryCount(category: category, count: notes.filter { $0.category == category }.count)
    }.filter { $0.count > 0 }.sorted { $0.count > $1.count }
    var byTime: [String: Int] = [:]
    for note in notes { byTime[Self.partOfDay(note.at), default: 0] += 1 }
    cravingsByTime = byTime
    if let top = cravingsByCategory.first {
      let times = notes.filter { $0.category == top.category }.map { Self.partOfDay($0.at) }
      // ties go to the earlier part of the day, so the same week always reads the same
      let part = Self.partsOfDay.max { a, b in
        times.filter { $0 == a }.count < times.filter { $0 == b }.count
      }!
      topCravingTime = PartOfDay(part: part, all: times.allSatisfy { $0 == part })
    }
    commitments = days.compactMap { day in
      day.review?.commitTo.map { to in
        "I will \(to)" + (day.review?.commitFrom.map { " instead of \($0)" } ?? "")
      }
    }
    previousDaysDone = before.filter(\.isDone).count
    previousCravings = before.reduce(0) { $0 + $1.help.count }
  }

  /// The parts of the day, earliest first.
  static let partsOfDay = ["night", "morning", "afternoon", "evening"]

  /// "night" (00:00-04:59), "morning", "afternoon" or "evening" for a saved time stamp, at
  /// its clock time.
  static func partOfDay(_ iso: String) -> String {
    let hour = Int(String(Array(iso).dropFirst(11).prefix(2))) ?? 12
    return hour < 5 ? "night" : hour < 12 ? "morning" : hour < 17 ? "afternoon" : "evening"
  }

  /// "at night", "in the morning".
  static func during(_ part: String) -> String { part == "night" ? "at night" : "in the \(part)" }

  /// The look back in a few short lines, no chart junk.
  public var lines: [String] {
    var out: [String] = []
    // this week so far has fewer than seven days
    let count = max(1, last.ordinal - first.ordinal + 1)
    out.append("Days with a flow: \(daysDone) of \(count) (the week before: \(previousDaysDone)).")
    if daysDone == 0 {
      out.append("A quiet week. Any one flow starts the next one.")
      return out
    }
    out.append(
      "Prep \(prep) · Morning Focus \(review) · check-in \(checkin) · cravings noted \(cravings)"
        + " (the week before: \(previousCravings)).")
    // what the prep says is what was ticked: an item left out of a prep saved with flags was
    // never answered, so the words are "not marked ready", and every item of a tie is named
    if let most = prepMissing.first {
      let names = prepMissing.filter { $0.count == most.count }.map {
        $0.item.rawValue.replacing("-", with: " ")
      }
      let list =
        names.count == 1
        ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
      out.append(
        "Prep: \(list) \(names.count == 1 ? "was" : "were") not marked ready on \(most.count) of \(prep) evenings."
      )
    }
    if swapsAnswered > 0 {
      out.append("Swaps: followed in \(swapsFollowed) of \(swapsAnswered) check-ins.")
    }
    if let top = cravingsByCategory.first {
      let name = top.category == .other ? "other / not sure" : top.category.rawValue
      let when =
        topCravingTime.map { ($0.all ? ", all " : ", most ") + Self.during($0.part) }
        ?? ""
      if cravings == 1 {
        out.append(
          "Cravings: one, \(name)" + (topCravingTime.map { ", " + Self.during($0.part) } ?? "")
            + ".")
      } else {
        out.append(
          top.count == cravings
            ? "Cravings: all \(cravings) were \(name)\(when)."
            : "Cravings: \(top.count) of \(cravings) were \(name)\(when).")
      }
    }
    if !commitments.isEmpty {
      // each commitment once, with how many days it was made
      var seen: [String] = []
      for c in commitments where !seen.contains(c) { seen.append(c) }
      let said = seen.map { c in
        let n = commitments.filter { $0 == c }.count
        return n > 1 ? "\(c) (\(n) days)" : c
      }
      out.append("You committed: " + said.joined(separator: "; ") + ".")
    }
    return out
  }
}

/// When a flow keeps being done well away from its reminder, the time it is really done at.
public enum SlotSuggestion {
  /// The time (minutes after midnight) to move `slotMinutes` to, when on at least 5 of the
  /// `times` (minutes after midnight a flow was done, one a day) it was done more than 45
  /// minutes away from the reminder: 25 minutes before their middle value, on a 5-minute mark.
  public static func better(slotMinutes: Int, times: [Int]) -> (usual: Int, suggested: Int)? {
    let away = times.filter { abs($0 - slotMinutes) > 45 }
    guard away.count >= 5 else { return nil }
    let sorted = away.sorted()
    let usual = sorted[sorted.count / 2]
    let suggested = max(0, (usual - 25) / 5 * 5)
    return (usual, suggested)
  }
}
