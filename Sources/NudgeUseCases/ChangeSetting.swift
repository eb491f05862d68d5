import NudgeCore
import NudgeStore

/// A setting changed (`nudge config set|unset`): the value, already checked by its key's rule,
/// stored or taken back to its default, journaled for `undo`; returns the settings as they are
/// after.
public struct ChangeSetting: Sendable {
  public let db: AppDatabase

  public init(db: AppDatabase) { self.db = db }

  /// Stores `value` (checked by `key.validate`) for `key`.
  public func set(_ key: SettingKey, to value: String, madeOn: Day, at: String)
    throws(StoreError) -> Settings
  {
    try db.journaling(.setting(key), madeOn: madeOn, at: at, keys: .these([.of(key)])) {
      () throws(StoreError) in
      try db.setSetting(key, to: value)
      return try db.settings()
    }
  }

  /// Returns `key` to its default.
  public func unset(_ key: SettingKey, madeOn: Day, at: String) throws(StoreError) -> Settings {
    try db.journaling(.setting(key), madeOn: madeOn, at: at, keys: .these([.of(key)])) {
      () throws(StoreError) in
      try db.removeSetting(key)
      return try db.settings()
    }
  }
}
