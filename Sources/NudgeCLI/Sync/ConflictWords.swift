import NudgeCore
import NudgeStore

/// A sync conflict in the words of what it is about: which computer's version won, and only
/// the fields the two versions differ in, each as its flow asks it (never a raw id like
/// `commit_to`). `sync status`, the today view, `show` and a day's flow all say it so.
struct ConflictWords {
  let plans: PlanSet
  /// This computer's id and name, and the other computers' names by id.
  let me: SyncSelf
  let peers: [String: String]

  /// One field the two versions differ in.
  struct Difference: Encodable, Equatable {
    /// The field's id (an answer's question id, `last_day`, `time`, `on`, `value`).
    var field: String
    /// The field in words: its question as the flow asks it.
    var label: String
    /// What the kept version holds, and the version that won, in words (nil: nothing).
    var kept: String?
    var won: String?
  }

  /// A computer by its name (this one's, or another's as last read).
  func name(_ device: String) -> String {
    VisibleText.escaped(device == me.device ? me.name : peers[device] ?? device)
  }

  /// The fields `kept` and `won` differ in, in their flow's question order.
  func differences(_ key: SyncKey, kept: SyncValue?, won: SyncValue?) -> [Difference] {
    let keptFields = kept?.fields ?? [:]
    let wonFields = won?.fields ?? [:]
    let differing = Set(
      (kept ?? SyncValue()).differingFields(from: won ?? SyncValue()))
    let flow = definition(of: key)
    let order = (flow?.questions.map(\.id) ?? []) + differing.sorted()
    var said: Set<String> = []
    return order.compactMap { field in
      guard differing.contains(field), said.insert(field).inserted else { return nil }
      let question = flow?.questions.first { $0.id == field }
      func words(_ answer: String?) -> String? {
        answer.map { answer in
          VisibleText.escaped(question.map { shown(answer, $0, flow?.word ?? "") } ?? answer)
        }
      }
      return Difference(
        field: field, label: label(field, question), kept: words(keptFields[field]),
        won: words(wonFields[field]))
    }
  }

  /// The lines of `differences` for a listing: "How did today go?: kept 'calm', won 'tired'".
  static func lines(_ differences: [Difference]) -> [String] {
    differences.map { difference in
      "\(difference.label): kept \(quoted(difference.kept)), won \(quoted(difference.won))"
    }
  }

  /// What the today view, `show` and a day's flow say of a conflict about an entry: which
  /// computer's version won and how to take the other instead.
  func notice(_ conflict: SyncConflict, won: SyncValue?) -> String {
    let what: String
    if case .entry(let day, let flow, let id) = conflict.key {
      what = id == nil ? "\(title(of: flow)) of \(day)" : "a help note of \(day)"
    } else {
      what = SyncStatus.spoken(conflict.key.description)
    }
    let differing = differences(conflict.key, kept: conflict.kept.value, won: won).map(\.label)
    return
      "Sync conflict: \(name(conflict.winner.device))'s \(what) won over \(name(conflict.kept.clock.device))'s (both changed it while apart"
      + (differing.isEmpty ? "" : "; they differ in: \(differing.joined(separator: ", "))")
      + "). 'nudge sync take \(conflict.id)' takes \(name(conflict.kept.clock.device))'s instead; 'nudge sync status' shows both."
  }

  /// A flow's title, as its plan names it ("End-of-day check-in").
  func title(of word: String) -> String {
    allFlows.first { $0.word == word }.map { VisibleText.escaped($0.title) }
      ?? VisibleText.escaped(word)
  }

  private var allFlows: [FlowDefinition] { plans.catalogue.entries.flatMap(\.plan.flows) }

  private func definition(of key: SyncKey) -> FlowDefinition? {
    guard case .entry(_, let flow, _) = key else { return nil }
    return allFlows.first { $0.word == flow }
  }

  private func label(_ field: String, _ question: Question?) -> String {
    if let question { return VisibleText.escaped(question.ask) }
    return Self.fieldWords[field] ?? VisibleText.escaped(field)
  }

  /// The words for each field of a kind that has no questions (`SyncValue.fields`): a habit's
  /// definition's as `HabitField` declares them, and the others'.
  static let fieldWords = [
    "last_day": "Last day off", "time": "Time", "on": "On", "value": "Setting",
    "done": "Done (no: skipped or a no)", "amount": "Amount",
    "failed": "Said no", "note": "The day's note",
    "plan_text": "The plan file's text", "coach": "What the coach offered",
  ].merging(HabitField.allCases.map { ($0.rawValue, $0.words) }) { own, _ in own }

  private func shown(_ answer: String, _ question: Question, _ word: String) -> String {
    AnsweredView(plans: plans).shown(answer, question, word)
  }

  private static func quoted(_ text: String?) -> String {
    text.map { "'\($0)'" } ?? "nothing"
  }
}

extension Context {
  /// The conflicts about entries of `days` (of `flow` when given), each said in words (the
  /// today view, `show`, a day's flow); none when this computer does not sync. The plans are
  /// read only when there is a conflict to say.
  func conflictNotices(
    _ db: AppDatabase, plans: () throws -> PlanSet, days: Set<Day>, flow: String? = nil
  ) throws -> [String] {
    guard let me = try db.syncDevice() else { return [] }
    let conflicts = try db.syncConflicts().filter { conflict in
      guard case .entry(let entryDay, let entryFlow, _) = conflict.key else { return false }
      return days.contains(entryDay) && (flow == nil || entryFlow == flow)
    }
    guard !conflicts.isEmpty else { return [] }
    let winners = try db.syncWinners(of: conflicts.map(\.key))
    let words = ConflictWords(
      plans: try plans(), me: me,
      peers: Dictionary(
        try db.syncPeers().map { ($0.device, $0.name) }, uniquingKeysWith: { first, _ in first }))
    return conflicts.map { words.notice($0, won: winners[$0.key.description] ?? nil) }
  }
}
