import ArgumentParser
import NudgeCore

/// `nudge history`: the last days as a timeline.
struct HistoryCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "history", abstract: "The last 7 days as a timeline.")

  @Option(help: "How many days back, today included (1-3650).")
  var days: Int = 7

  @Flag(help: "Print the days as JSON, oldest first.")
  var json = false

  func validate() throws {
    guard (1...3650).contains(days) else {
      throw ValidationError("--days must be from 1 to 3650.")
    }
  }

  func run(_ ctx: Context) throws {
    let db = try ctx.openDatabase()
    let settings = try db.settings()
    let today = ctx.today(settings).day
    let timeline = try db.history(from: today.adding(days: -(days - 1)), through: today)
    if json {
      ctx.line(try jsonText(timeline))
      return
    }
    let style = ctx.style
    let frozen = Set(
      StreakRule.evaluate(doneDays: try db.doneDays(), today: today).frozen)
    for entry in timeline.reversed() {
      let label = entry.date == today ? "Today" : entry.date.short
      ctx.line(
        style.bold(label.padded(to: 11))
          + summary(entry, style, frozen: frozen.contains(entry.date), today: entry.date == today)
      )
    }
  }

  private func summary(_ entry: HistoryDay, _ style: Style, frozen: Bool, today: Bool) -> String {
    if !entry.isDone && frozen { return style.cyan("* frozen (a streak freeze kept the streak)") }
    if !entry.isDone && today { return style.yellow("○ in progress") }
    guard entry.isDone else { return style.dim("·") }
    var parts: [String] = []
    if let prep = entry.prep {
      parts.append("prep \(prep.doneCount)/\(PrepItem.allCases.count)")
    }
    if let review = entry.review {
      parts.append("focus" + (review.challengeText.map { ": \($0.lowercased())" } ?? ""))
    }
    if let checkin = entry.checkin {
      let how =
        switch checkin.followed {
        case true?: ": swap followed"
        case false?: ": swap missed"
        case nil: ""
        }
      parts.append("check-in" + how)
    }
    for note in entry.help {
      parts.append("help \(clockTime(note.at)) \(note.category.rawValue)")
    }
    return style.green("✓ ") + parts.joined(separator: " · ")
  }
}
