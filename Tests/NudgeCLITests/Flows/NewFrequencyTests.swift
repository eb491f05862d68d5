import Foundation
import NudgeCore
import NudgeStore
import Testing

/// A new habit frequency needs its one file, as ARCHITECTURE.md's "Adding things" says: only
/// NudgeCore/Habits/HabitFrequency.swift takes a frequency apart by its cases (everything else
/// asks it its words, periods and wants), and the store and an export (which a sync line
/// carries) keep its words, which read back as the same frequency.
@Suite struct NewFrequencyTests {
  typealias Map = ArchitectureMapTests
  static let home = "NudgeCore/Habits/HabitFrequency.swift"
  static let cases = ["daily", "weekdays", "timesPerWeek", "timesPerMonth", "everyDays"]

  @Test func onlyItsOwnFileTakesAFrequencyApartByItsCases() {
    // a `case .timesPerWeek` (a switch arm or an `if case`) outside its file would be a place
    // a new case must be added by hand
    let pattern = try! Regex("case (let )?\\.(\(Self.cases.joined(separator: "|")))\\b")
    var inItsFile = 0
    for target in Map.targets {
      for (path, text) in Map.sources(of: target) {
        let found = text.matches(of: pattern).count
        if "\(target)/\(path)" == Self.home {
          inItsFile = found
        } else {
          #expect(found == 0, "\(target)/\(path) takes a HabitFrequency apart by its cases")
        }
      }
    }
    #expect(inItsFile > 10, "HabitFrequency.swift no longer holds its cases' answers")
  }

  @Test(arguments: [
    HabitFrequency.daily, .weekdays([1, 3, 5]), .weekdays([0, 6]), .timesPerWeek(3),
    .timesPerMonth(8), .everyDays(4),
  ])
  func theStoreAndAnExportKeepAFrequencyAsItsWords(_ every: HabitFrequency) throws {
    // the words read back as the same frequency (what a sync line carries is the export's)
    #expect(try HabitFrequency.parse(every.description) == every)
    // kept in a database and read back
    let db = try AppDatabase.inMemory()
    let day = Day("2026-11-20")!
    let added = try db.addHabit(
      Habit(name: "walk", every: every, since: day), madeOn: day, at: "2026-11-20T08:00:00Z")
    #expect(try db.habits().first { $0.id == added.id }?.every == every)
    // carried by an export and checked back in as an import checks it
    let exported = ExportHabit(added, days: [])
    #expect(exported.every == every.description)
    let back = try exported.checked(reserved: [], timeProblem: { _ in nil })
    #expect(back.habit.every == every)
  }
}
