import NudgeCore
import Testing

@testable import NudgeCLI
@testable import NudgeStore

/// A habit's definition is declared field by field once (`HabitField`), and each path holds
/// to that declaration: the export's fields, the store's columns, sync's fields, the conflict
/// listing's words. A field added to one path and not declared, or declared and missing from a
/// path, fails here.
@Suite struct HabitFieldTests {
  /// A habit with every field set (an optional one too).
  static let full: ExportHabit = {
    var habit = Habit(
      id: 1, name: "Read", question: "Did you read?", every: .daily, at: "7:00", target: 20,
      unit: "pages", since: Day("2026-11-01")!, archived: true)
    habit.alsoAt = ["21:00"]
    habit.tags = ["mind"]
    habit.atMost = true
    habit.quit = true
    return ExportHabit(habit, days: [])
  }()

  static func snakeCased(_ name: String) -> String {
    name.reduce(into: "") { out, character in
      out += character.isUppercase ? "_" + character.lowercased() : String(character)
    }
  }

  @Test func everyFieldOfTheExportIsDeclaredAndEveryDeclaredFieldHasItsPaths() throws {
    let declared = Set(HabitField.allCases.map(\.rawValue))
    // the export: each of its fields but the id it travels by and its days is declared
    let exported = Set(
      Mirror(reflecting: Self.full).children.compactMap(\.label).map(Self.snakeCased)
    )
    .subtracting(["uid", "days"])
    #expect(exported == declared, "\(exported.symmetricDifference(declared))")
    // the store: a column of the habit table by each name
    let db = try AppDatabase.inMemory()
    let columns = Set(try db.read { try $0.texts("SELECT name FROM pragma_table_info('habit')") })
    #expect(declared.isSubset(of: columns), "\(declared.subtracting(columns))")
    // sync: a habit's value lists each field, and a change of one is a change of it alone
    #expect(Set(SyncValue(habit: Self.full).fields.keys) == declared)
    var renamed = Self.full
    renamed.name = "Reading"
    #expect(
      SyncValue(habit: renamed).differingFields(from: SyncValue(habit: Self.full)) == ["name"])
    // the conflict listing: each in its declared words, never its raw name
    for field in HabitField.allCases {
      #expect(ConflictWords.fieldWords[field.rawValue] == field.words)
      #expect(field.words != field.rawValue)
    }
  }
}
