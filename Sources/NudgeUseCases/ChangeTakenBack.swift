import NudgeCore

/// What a delete or an undo changed: the change (a delete, or the change undone), and the
/// achievements that came back or went with it.
public struct ChangeTakenBack: Sendable {
  /// The entry deleted, or the change undone.
  public var change: EntryChange
  public var newAchievements: [Achievement]
  public var lostAchievements: [Achievement]
}
