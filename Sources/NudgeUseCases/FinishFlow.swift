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
  }

  /// Finishes a day's prep, review or check-in: `update` merged into the day's entry, saved
  /// at `savedAt` (made on `madeOn`, the day it is now; `editing` for `nudge edit`).
  @discardableResult
  public func callAsFunction<Entry: DayRecord>(
    _ type: Entry.Type = Entry.self, day: Day, savedAt: String, madeOn: Day? = nil,
    editing: Bool = false, removingDraft: Bool = false, reward: RewardDraw? = nil,
    _ update: (inout Entry) -> Void
  ) throws(StoreError) -> Finished<Entry> {
    try db.inTransaction {
      let ledger = AchievementLedger(db: db)
      let existing = try db.dayEntry(on: day) as Entry?
      // an answer changed back (a swap no longer followed) can take an achievement away
      let heldBefore = existing == nil ? nil : try ledger.held()
      var entry = existing ?? .blank(day: day, savedAt: savedAt)
      update(&entry)
      entry.savedAt = savedAt
      try db.putEntry(entry)
      var unchanged = existing
      unchanged?.savedAt = savedAt
      if unchanged != entry {  // a run that changed nothing leaves nothing to undo
        try db.journalChange(
          madeOn: madeOn ?? day, at: savedAt,
          kind: existing == nil ? .saved : editing ? .edited : .updated,
          before: existing?.flowEntry, after: entry.flowEntry)
      }
      if removingDraft { try db.removeDraft(Entry.flow, on: day) }
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

  /// Finishes a run of a flow a plan file defines: `answers` laid over the day's entry (those
  /// whose question no longer applies dropped), saved at `savedAt`; journaled, awarded and
  /// drawn as a coach flow is. The caller has checked that the merged entry counts.
  @discardableResult
  public func callAsFunction(
    _ flow: FlowDefinition, answers: FlowAnswers, day: Day, savedAt: String, madeOn: Day? = nil,
    editing: Bool = false, removingDraft: Bool = false, reward: RewardDraw? = nil
  ) throws(StoreError) -> Finished<AnsweredEntry> {
    try db.inTransaction {
      let ledger = AchievementLedger(db: db)
      var existing: AnsweredEntry? = nil
      if case .answered(let stored)? = try db.entry(.defined(flow.word), on: day) {
        existing = stored
      }
      // an answer changed back (a challenge no longer completed) can take an achievement away
      let heldBefore = existing == nil ? nil : try ledger.held()
      var entry = existing ?? AnsweredEntry(flow: flow.word, day: day, savedAt: savedAt)
      entry.answers = entry.answers.merging(answers).applying(to: flow)
      entry.savedAt = savedAt
      try db.putFlowEntry(.answered(entry))
      var unchanged = existing
      unchanged?.savedAt = savedAt
      if unchanged != entry {
        try db.journalChange(
          madeOn: madeOn ?? day, at: savedAt,
          kind: existing == nil ? .saved : editing ? .edited : .updated,
          before: existing.map(FlowEntry.answered), after: .answered(entry))
      }
      if removingDraft { try db.removeDraft(.defined(flow.word), on: day) }
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

  /// Finishes an I-need-help flow: adds its tagged note; awards and draws as a day's flow does.
  @discardableResult
  public func callAsFunction(
    _ note: HelpNote, madeOn: Day? = nil, removingDraft: Bool = false, reward: RewardDraw? = nil
  ) throws(StoreError) -> Finished<HelpNote> {
    try db.inTransaction {
      try db.insertHelpNote(note)
      try db.journalChange(
        madeOn: madeOn ?? note.day, at: note.at, kind: .saved, before: nil, after: .help(note))
      if removingDraft { try db.removeDraft(.needHelp, on: note.day) }
      let (new, _) = try AchievementLedger(db: db).settle(heldBefore: nil)
      var drawn: StoredCelebration? = nil
      if let reward { drawn = try celebrate(day: note.day, new: new, updated: false, with: reward) }
      return Finished(entry: note, updated: false, newAchievements: new, celebration: drawn)
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
