import NudgeCore

/// The schema, version by version. A migration is frozen once released: it never calls code
/// that may change later (achievements are recomputed after migrating, by today's rules).
extension AppDatabase {
  /// Brings the schema up to date in a single immediate write transaction, so a file is at
  /// its old version or the current one, never in between, whatever stops the process; a
  /// file from a newer Nudge is refused untouched.
  static func migrate(_ db: SQLiteConnection, upTo target: Int = schemaVersion) throws {
    let current = try db.integer("PRAGMA user_version") ?? 0
    if current == target { return }
    try db.transaction(immediate: true) {
      let version = try db.integer("PRAGMA user_version") ?? 0
      if version > schemaVersion {
        throw StoreError.newerSchema(
          "the database was written by a newer Nudge (schema \(version)). Update Nudge; the file was left untouched."
        )
      }
      for (number, step) in migrations.enumerated() where number + 1 > version {
        guard number + 1 <= target else { break }
        try db.execute(step)
        // version 13 keeps the sync triggers of a device that syncs (in their shorter form)
        if number + 1 == 13, try db.integer("SELECT count(*) FROM sync_self") ?? 0 > 0 {
          try db.execute(syncTriggersVersion13)
        }
        // version 15 adds the habits' and plan choices' triggers to a device that syncs, and
        // marks what it holds of them to be written (the others have never had them)
        if number + 1 == 15, try db.integer("SELECT count(*) FROM sync_self") ?? 0 > 0 {
          try db.execute(syncTriggersVersion15)
          try db.execute(syncKeysOfVersion15)
        }
        // version 18 carries the three journals' changes over into its one, then drops them
        if number + 1 == 18 { try carryJournalsOver(db) }
        try db.execute("PRAGMA user_version = \(number + 1)")
      }
      // a file from before achievements gets those its history already earned (by today's
      // rules, on today's tables: only when brought up to today's version)
      if version < 2 && target == schemaVersion {
        for (achievement, day) in AchievementRule.evaluate(try historyFacts(db)) {
          try db.insert(EarnedAchievement(key: achievement, earnedOn: day))
        }
      }
    }
  }

  /// The triggers that mark what changes here while this device syncs (`sync_dirty`), as
  /// version 13 makes them. Frozen with it: a later change to them is a new version that drops
  /// and makes them again.
  static let syncTriggersVersion13 = """
    CREATE TRIGGER sync_entry_added AFTER INSERT ON flow_entry BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'entry/' || NEW.day || '/' || NEW.flow
        || CASE NEW.key WHEN '' THEN '' ELSE '/' || NEW.key END AS k)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    CREATE TRIGGER sync_entry_changed AFTER UPDATE ON flow_entry BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'entry/' || OLD.day || '/' || OLD.flow
        || CASE OLD.key WHEN '' THEN '' ELSE '/' || OLD.key END AS k
        UNION SELECT 'entry/' || NEW.day || '/' || NEW.flow
        || CASE NEW.key WHEN '' THEN '' ELSE '/' || NEW.key END)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    CREATE TRIGGER sync_entry_removed AFTER DELETE ON flow_entry BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'entry/' || OLD.day || '/' || OLD.flow
        || CASE OLD.key WHEN '' THEN '' ELSE '/' || OLD.key END AS k)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    CREATE TRIGGER sync_pause_added AFTER INSERT ON pause BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'pause/' || NEW.first_day AS k)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    CREATE TRIGGER sync_pause_changed AFTER UPDATE ON pause BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'pause/' || OLD.first_day AS k
        UNION SELECT 'pause/' || NEW.first_day)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    CREATE TRIGGER sync_pause_removed AFTER DELETE ON pause BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'pause/' || OLD.first_day AS k)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    CREATE TRIGGER sync_slot_added AFTER INSERT ON slot_schedule BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'slot/' || NEW.slot AS k)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    CREATE TRIGGER sync_slot_changed AFTER UPDATE ON slot_schedule BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'slot/' || OLD.slot AS k
        UNION SELECT 'slot/' || NEW.slot)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    CREATE TRIGGER sync_slot_removed AFTER DELETE ON slot_schedule BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'slot/' || OLD.slot AS k)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    CREATE TRIGGER sync_setting_added AFTER INSERT ON setting
      WHEN NEW.key = 'celebrations' BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'setting/celebrations' AS k)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    CREATE TRIGGER sync_setting_changed AFTER UPDATE ON setting
      WHEN 'celebrations' IN (NEW.key, OLD.key) BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'setting/celebrations' AS k)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    CREATE TRIGGER sync_setting_removed AFTER DELETE ON setting
      WHEN OLD.key = 'celebrations' BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'setting/celebrations' AS k)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    """

  /// The triggers version 15 adds for a device that syncs: a habit's definition (by its uid;
  /// a removed one travels as a removal), a habit's day, a plan turned on or off. Frozen with
  /// it, as `syncTriggersVersion13` is.
  static let syncTriggersVersion15 = """
    CREATE TRIGGER sync_habit_added AFTER INSERT ON habit WHEN NEW.uid IS NOT NULL BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'habit/' || NEW.uid AS k)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    CREATE TRIGGER sync_habit_changed AFTER UPDATE ON habit WHEN NEW.uid IS NOT NULL BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'habit/' || NEW.uid AS k)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    CREATE TRIGGER sync_habit_removed AFTER DELETE ON habit WHEN OLD.uid IS NOT NULL BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'habit/' || OLD.uid AS k)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    CREATE TRIGGER sync_habit_day_added AFTER INSERT ON habit_check BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'habitday/' || uid || '/' || NEW.day AS k
        FROM habit WHERE id = NEW.habit AND uid IS NOT NULL AND NOT removed)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    CREATE TRIGGER sync_habit_day_changed AFTER UPDATE ON habit_check BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'habitday/' || uid || '/' || OLD.day AS k
        FROM habit WHERE id = OLD.habit AND uid IS NOT NULL AND NOT removed
        UNION SELECT 'habitday/' || uid || '/' || NEW.day
        FROM habit WHERE id = NEW.habit AND uid IS NOT NULL AND NOT removed)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    CREATE TRIGGER sync_habit_day_removed AFTER DELETE ON habit_check BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'habitday/' || uid || '/' || OLD.day AS k
        FROM habit WHERE id = OLD.habit AND uid IS NOT NULL AND NOT removed)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    CREATE TRIGGER sync_plan_added AFTER INSERT ON plan_choice BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'plan/' || NEW.plan AS k)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    CREATE TRIGGER sync_plan_changed AFTER UPDATE ON plan_choice BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'plan/' || OLD.plan AS k
        UNION SELECT 'plan/' || NEW.plan)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    CREATE TRIGGER sync_plan_removed AFTER DELETE ON plan_choice BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'plan/' || OLD.plan AS k)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    CREATE TRIGGER sync_plan_file_added AFTER INSERT ON plan_file BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'planfile/' || NEW.name AS k)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    CREATE TRIGGER sync_plan_file_changed AFTER UPDATE OF name, text ON plan_file BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'planfile/' || OLD.name AS k
        UNION SELECT 'planfile/' || NEW.name)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    CREATE TRIGGER sync_plan_file_removed AFTER DELETE ON plan_file BEGIN
      INSERT INTO sync_dirty SELECT k FROM (SELECT 'planfile/' || OLD.name AS k)
      WHERE k NOT IN (SELECT key FROM sync_dirty); END;
    """

  /// Every key of the kinds version 15 made travel that this database holds, marked to be
  /// written (what a device brings of them when it joins, or when it upgrades while syncing).
  /// (Also in `sync_brought`: dated as what a device brings when it joins, so a computer that
  /// upgrades later never makes what it held before newer than a change made meanwhile.)
  static let syncKeysOfVersion15 = """
    CREATE TEMP TABLE brought15 AS
      SELECT 'habit/' || uid AS key FROM habit WHERE uid IS NOT NULL AND NOT removed
      UNION ALL SELECT 'habitday/' || h.uid || '/' || c.day
        FROM habit_check c JOIN habit h ON h.id = c.habit
        WHERE h.uid IS NOT NULL AND NOT h.removed
      UNION ALL SELECT 'plan/' || plan FROM plan_choice
      UNION ALL SELECT 'planfile/' || name FROM plan_file;
    INSERT OR IGNORE INTO sync_dirty (key) SELECT key FROM brought15;
    INSERT OR IGNORE INTO sync_brought (key) SELECT key FROM brought15;
    DROP TABLE brought15;
    """

  /// The names of the sync triggers (`syncTriggersVersion13`, `syncTriggersVersion15`), for
  /// `leaveSync` to drop.
  static let syncTriggerNames = [
    "sync_entry_added",
    "sync_entry_changed",
    "sync_entry_removed",
    "sync_pause_added",
    "sync_pause_changed",
    "sync_pause_removed",
    "sync_slot_added",
    "sync_slot_changed",
    "sync_slot_removed",
    "sync_setting_added",
    "sync_setting_changed",
    "sync_setting_removed",
    "sync_habit_added",
    "sync_habit_changed",
    "sync_habit_removed",
    "sync_habit_day_added",
    "sync_habit_day_changed",
    "sync_habit_day_removed",
    "sync_plan_added",
    "sync_plan_changed",
    "sync_plan_removed",
    "sync_plan_file_added",
    "sync_plan_file_changed",
    "sync_plan_file_removed",
  ]
}
