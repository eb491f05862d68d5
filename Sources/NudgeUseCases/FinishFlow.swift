import NudgeCore
import NudgeStore

/// Finishes a flow, in one transaction so a kill leaves all of it or none: merges the answers
/// into the day's entry (a blank one when the day has none), stamps it, journals the change
/// for `undo` (nothing when no answer changed), removes the flow's draft when this run kept
/// it, settles achievements with the core's rules (an edit can take one away) and draws the
/// celebration with the core's reward rules.
public struct FinishFlow: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  /// What finishing a flow wrote: the entry as stored, whether the day already had one, the
  /// achievements it newly earned (and, for an edit, those whose condition no longer holds,
  /// taken back) and the celebration drawn for it (nil when it earned none, or none was asked
  /// for).
  public struct Finished<Entry: Sendable>: Sendable {
    public var entry: Entry
    public var updated: Bool
    public var newAchievements: [Achievement]
    public var lostAchievements: [Achievement] = []
    public var celebration: StoredCelebration?

    func map<Other>(_ transform: (Entry) -> Other) -> Finished<Other> {
      Finished<Other>(
        entry: transform(entry), updated: updated, newAchievements: newAchievements,
        lostAchievements: lostAchievements, celebration: celebration)
    }
  }

  /// Finishes a day's prep, review or check-in: `update` merged into the day's entry, saved
  /// at `savedAt` (made on `madeOn`, the day it is now; `editing` for `nudge edit`).
  @discardableResult
  public func callAsFunction<Entry: DayRecord>(
    _ type: Entry.Type = Entry.self, day: Day, savedAt: String, madeOn: Day? = nil,
    editing: Bool = false, removingDraft: Bool = false, reward: RewardDraw? = nil,
    _ update: (inout Entry) -> Void
  ) throws(StoreError) -> Finished<Entry> {
    let finished = try finish(
      Entry.flow, key: day.description, day: day, savedAt: savedAt, madeOn: madeOn,
      editing: editing, removingDraft: removingDraft, reward: reward
    ) { existing in
      var entry = existing.flatMap { Entry($0) } ?? .blank(day: day, savedAt: savedAt)
      update(&entry)
      entry.savedAt = savedAt
      return entry.flowEntry
    }
    return finished.map { Entry($0)! }
  }

  /// Finishes a run of a flow a plan file defines: `answers` laid over the day's entry (those
  /// whose question no longer applies dropped), saved at `savedAt`. The caller has checked
  /// that the merged entry counts.
  @discardableResult
  public func callAsFunction(
    _ flow: FlowDefinition, answers: FlowAnswers, day: Day, savedAt: String, madeOn: Day? = nil,
    editing: Bool = false, removingDraft: Bool = false, reward: RewardDraw? = nil
  ) throws(StoreError) -> Finished<AnsweredEntry> {
    let finished = try finish(
      .defined(flow.word), key: day.description, day: day, savedAt: savedAt, madeOn: madeOn,
      editing: editing, removingDraft: removingDraft, reward: reward
    ) { existing in
      var entry =
        existing?.answeredEntry ?? AnsweredEntry(flow: flow.word, day: day, savedAt: savedAt)
      entry.answers = entry.answers.merging(answers).applying(to: flow)
      entry.savedAt = savedAt
      return entry.flowEntry
    }
    return finished.map { $0.answeredEntry! }
  }

  /// Finishes an I-need-help flow: adds its tagged note (a new one: a day keeps several).
  @discardableResult
  public func callAsFunction(
    _ note: HelpNote, madeOn: Day? = nil, removingDraft: Bool = false, reward: RewardDraw? = nil
  ) throws(StoreError) -> Finished<HelpNote> {
    let finished = try finish(
      .needHelp, key: note.id, day: note.day, savedAt: note.at, madeOn: madeOn, editing: false,
      removingDraft: removingDraft, reward: reward
    ) { _ in note.flowEntry }
    return finished.map { $0.helpNote! }
  }

  /// The one path every flow's finish takes, in one transaction: reads what `key` holds,
  /// `merge`s the run into it, stores the result (a flow kept several a day adds a new
  /// entry), journals it for `undo` unless nothing changed but its time stamp, removes the
  /// draft, settles the achievements (an entry changed back can take one away) and draws the
  /// celebration.
  private func finish(
    _ flow: Flow, key: String, day: Day, savedAt: String, madeOn: Day?, editing: Bool,
    removingDraft: Bool, reward: RewardDraw?, merge: (FlowEntry?) -> FlowEntry
  ) throws(StoreError) -> Finished<FlowEntry> {
    try db.inTransaction {
      let ledger = AchievementLedger(db: db)
      let existing = flow.isKeptSeveralADay ? nil : try db.entry(flow, key: key)
      let heldBefore = existing == nil ? nil : try ledger.held()
      let entry = merge(existing)
      if flow.isKeptSeveralADay {
        try db.insertFlowEntry(entry)
      } else {
        try db.putFlowEntry(entry)
      }
      if existing?.stamped(savedAt) != entry {  // a run that changed nothing leaves no undo
        try db.journalChange(
          madeOn: madeOn ?? day, at: savedAt,
          kind: existing == nil ? .saved : editing ? .edited : .updated,
          before: existing, after: entry)
      }
      if removingDraft { try db.removeDraft(flow, on: day) }
      let (new, lost) = try ledger.settle(heldBefore: heldBefore)
      var drawn: StoredCelebration? = nil
      if let reward {
        drawn = try celebrate(day: day, new: new, updated: existing != nil, with: reward)
      }
      return Finished(
        entry: entry, updated: existing != nil, newAchievements: new, lostAchievements: lost,
        celebration: drawn)
    }
  }

  /// Draws the next celebration, its moment from what was earned and the days done before.
  private func celebrate(day: Day, new: [Achievement], updated: Bool, with reward: RewardDraw)
    throws(StoreError) -> StoredCelebration?
  {
    let moment = CelebrationMoment.of(
      newAchievements: new, previousDoneDay: try db.previousDoneDay(before: day), day: day,
      firstOfDay: try db.doneFlowCount(on: day) == 1)
    return try CelebrationDraw(db: db, reward: reward)(
      newAchievements: new, updated: updated, moment: moment)
  }
}
