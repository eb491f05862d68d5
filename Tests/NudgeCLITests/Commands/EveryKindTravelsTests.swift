import Foundation
import NudgeCore
import NudgeStore
import Testing

@testable import NudgeCLI

/// Every kind of the person's data (`DataKind`), one change of each made with the commands a
/// person types, followed through every path its declaration names: the export holds it,
/// an import restores it into a fresh home, the CSV has its row (or the declaration says why
/// not), sync carries it to another computer, `undo` takes it back through its journal (or the
/// declaration names the command that does), and a conflict about it is listed in words,
/// never a raw id. A kind a path does not carry fails here.
@Suite struct EveryKindTravelsTests {
  static let before = "2026-11-20T08:00:00+01:00"
  static let at = "2026-11-20T09:00:00+01:00"
  static let day = Day("2026-11-20")!

  static let walkingPlan = """
    format = 1
    [plan]
    name = "walking"
    title = "Walking"
    on = true
    [[flow]]
    id = "walk"
    title = "Lunch walk"
    first = "First walk"
    [[flow.question]]
    id = "minutes"
    ask = "How many minutes?"
    kind = "number"
    required = true

    """

  /// What a kind's change needs there first (a habit to tick).
  static func setUp(_ kind: DataKind, _ nudge: Nudge) throws {
    if kind == .habitDay { try nudge("habit", "add", "Floss", now: before) }
  }

  /// One change of `kind`, as a person makes it.
  static func change(_ kind: DataKind, _ nudge: Nudge) throws -> Nudge.Result {
    switch kind {
    case .flowEntry:
      return try nudge("checkin", "--feel", "calm", "--no-input", "--no-animation", now: at)
    case .helpNote:
      return try nudge(
        "need-help", "--category", "stress", "--note", "after lunch", "--no-input",
        "--no-animation", now: at)
    case .pause:
      return try nudge("pause", "--from", "2026-11-23", "--until", "2026-11-24", "--yes", now: at)
    case .slotTime:
      return try nudge("schedule", "set", "morning", "08:15", now: at)
    case .setting:
      return try nudge("config", "set", "celebrations", "off", now: at)
    case .habit:
      // with tags and two reminders: they travel with the habit's definition
      return try nudge(
        "habit", "add", "Read", "--target", "20", "--unit", "pages", "--tag", "mind", "--tag",
        "evening", "--at", "7:00", "--at", "21:00", now: at)
    case .habitDay:
      // a no with a note: the day's mark and its words travel with it
      return try nudge("habit", "fail", "floss", "--note", "gums sore, \"again\"", now: at)
    case .planChoice:
      return try nudge("plan", "on", "sleep", now: at)
    case .planFile:
      let folder = nudge.home + "/.config/nudge/plans"
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      try walkingPlan.write(toFile: folder + "/walking.plan", atomically: true, encoding: .utf8)
      try FileManager.default.setAttributes(
        [.posixPermissions: 0o600], ofItemAtPath: folder + "/walking.plan")
      return try nudge("plan", "list", now: at)
    }
  }

  /// The key its change is kept under in sync, read from the export where it has an id.
  static func key(_ kind: DataKind, export: [String: Any]) -> SyncKey? {
    switch kind {
    case .flowEntry: return .entry(day: day, flow: "checkin", id: nil)
    case .helpNote:
      let id = (export["help"] as? [[String: Any]])?.first?["id"] as? String
      return id.map { .entry(day: day, flow: "need-help", id: $0) }
    case .pause: return .pause(firstDay: Day("2026-11-23")!)
    case .slotTime: return .slot(.morning)
    case .setting: return .celebrations
    case .habit, .habitDay:
      let habits = export["habits"] as? [[String: Any]] ?? []
      let name = kind == .habit ? "Read" : "Floss"
      guard let uid = habits.first(where: { $0["name"] as? String == name })?["uid"] as? String
      else { return nil }
      return kind == .habit ? .habit(uid: uid) : .habitDay(uid: uid, day: day)
    case .planChoice: return .planChoice("sleep")
    case .planFile: return .planFile("walking")
    }
  }

  /// The export's members that hold `kind`, as JSON text to compare (of the settings, only
  /// those that travel: the terminal is each computer's own).
  static func held(_ kind: DataKind, _ nudge: Nudge) throws -> [String: String] {
    let export = try exported(nudge)
    var held: [String: String] = [:]
    for member in kind.exportMembers {
      var value = export[member] ?? NSNull()
      if member == "settings", let settings = value as? [String: Any] {
        value = settings.filter { $0.key == SettingKey.celebrations.rawValue }
      }
      held[member] = String(
        decoding: try JSONSerialization.data(
          withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
    }
    return held
  }

  static func exported(_ nudge: Nudge) throws -> [String: Any] {
    let result = try nudge("export", now: at)
    try #require(result.status == 0, "\(result.stderr)")
    return try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
  }

  @Test(arguments: DataKind.allCases)
  func aChangeOfEachKindGoesThroughEveryPath(kind: DataKind) throws {
    // a change of it shows in the export
    let a = Nudge()
    try Self.setUp(kind, a)
    let baseline = try Self.held(kind, a)
    let made = try Self.change(kind, a)
    #expect(made.status == 0, "\(kind): \(made.stderr)")
    let after = try Self.held(kind, a)
    #expect(after != baseline, "\(kind): the export does not hold the change (\(after))")

    // an import restores it into a fresh home
    let file = a.home + "/backup.json"
    #expect(try a("export", "-o", file, now: Self.at).status == 0)
    let b = Nudge()
    let imported = try b("import", file, now: Self.at)
    #expect(imported.status == 0, "\(kind): \(imported.stderr)")
    #expect(try Self.held(kind, b) == after, "\(kind): the import does not restore it")

    // the CSV has its rows, or the declaration says why it is no day's record
    let csv = try a("export", "--csv", now: Self.at).stdout
    switch kind.spreadsheet {
    case .rows(let flow):
      let flows = csv.components(separatedBy: "\r\n").dropFirst().map {
        $0.split(separator: ",", omittingEmptySubsequences: false).dropFirst().first.map(
          String.init)
      }
      let wanted = flow ?? (kind == .helpNote ? "need-help" : "checkin")
      #expect(flows.contains(wanted), "\(kind): no '\(wanted)' row in \(csv)")
    case .notARecord(let why):
      #expect(!why.isEmpty)
    }

    // sync carries it to another computer
    let folder = NSTemporaryDirectory() + "nudge-kinds-\(UUID().uuidString)"
    try FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    let joined = try a("sync", "init", folder, "--name", "laptop", now: Self.at)
    #expect(joined.status == 0, "\(kind): \(joined.stderr)")
    let c = Nudge()
    let other = try c("sync", "init", folder, "--name", "desktop", now: Self.at)
    #expect(other.status == 0, "\(kind): \(other.stderr)")
    #expect(try Self.held(kind, c) == after, "\(kind): sync does not carry it")

    // a conflict about it is said in words: every field of it has a label that is no raw id
    let export = try Self.exported(a)
    let key = try #require(Self.key(kind, export: export), "\(kind): no key")
    let db = try AppDatabase.open(path: a.databasePath)
    let value = try #require(
      try db.syncValuesHere([key]).first ?? nil, "\(kind): \(key) holds nothing")
    let words = ConflictWords(
      plans: PlanSet(
        catalogue: PlanCatalogue.load(
          files: [(a.home + "/.config/nudge/plans/walking.plan", Self.walkingPlan)],
          commandWords: []),
        choices: [:]),
      me: try #require(try db.syncDevice()), peers: [:])
    let differences = words.differences(key, kept: value, won: nil)
    #expect(!differences.isEmpty, "\(kind)")
    for difference in differences {
      #expect(
        difference.label != difference.field || difference.field.contains(" "),
        "\(kind): '\(difference.field)' is listed by its raw id")
    }

    // undo takes it back through its journal, or the declaration names the command that does
    switch kind.undo {
    case .journal:
      let d = Nudge()
      try Self.setUp(kind, d)
      let before = try Self.held(kind, d)
      #expect(try Self.change(kind, d).status == 0)
      let after = try Self.held(kind, d)
      #expect(after != before, "\(kind): the change changed nothing the export holds")
      let undone = try d("undo", now: Self.at)
      #expect(undone.status == 0, "\(kind): \(undone.stderr)")
      #expect(try Self.held(kind, d) == before, "\(kind): undo does not take it back")
      // and redo puts it back as the change left it
      let redone = try d("redo", now: Self.at)
      #expect(redone.status == 0, "\(kind): \(redone.stderr)")
      #expect(try Self.held(kind, d) == after, "\(kind): redo does not re-apply it")
    case .byItsCommand(let command):
      #expect(!command.isEmpty)
    }
  }

  @Test func everyExportMemberAndSyncKindIsSomeKindsOwn() throws {
    // the export's members: each one a kind's, or the document's own shape
    let document = ExportDocument(settings: [:], prep: [], review: [], checkin: [], help: [])
    let members = try #require(
      try JSONSerialization.jsonObject(with: try document.encoded()) as? [String: Any]
    ).keys
    let declared = Set(DataKind.allCases.flatMap(\.exportMembers))
      .union(DataKind.derivedOrFormatMembers)
    #expect(Set(members) == declared, "\(Set(members).symmetricDifference(declared))")
    // and every kind of sync key a kind's
    for kind in SyncKey.kinds {
      #expect(DataKind.allCases.contains { $0.syncKind == kind })
    }
  }
}
