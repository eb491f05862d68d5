import NudgeCore

extension AppDatabase {
  /// Versions 12 on: sync through a folder, one undo order, habits that travel, and what
  /// habits came to hold since (a no, a note, tags, a limit, quitting, several reminders).
  static let migrationsSinceSync: [String] = [
    // Version 12: sync through a folder (`nudge sync`), empty until `sync init`: this device
    // (its id, name, folder, clock, its log's generation), each key's latest version as every
    // device orders it and what the versions merged of it had seen, the keys changed here not
    // yet written (the triggers mark them, whatever writes — only while this device syncs), the
    // lines made here the folder could not take yet (dated when made), each other device as
    // last read, the versions a conflict's winner replaced unknowing (`SyncKeyState.losers`),
    // the lines of others dated ahead of this clock (taken once it gets there), and the id this
    // device keeps across a leave and a join.
    """
      CREATE TABLE sync_self (
        id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
        device TEXT NOT NULL, name TEXT NOT NULL, folder TEXT NOT NULL,
        clock_wall INTEGER NOT NULL DEFAULT 0, clock_counter INTEGER NOT NULL DEFAULT 0,
        generation INTEGER NOT NULL DEFAULT 0, log_lines INTEGER NOT NULL DEFAULT 0,
        joined_at TEXT NOT NULL, wrote_at TEXT, log_bytes INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE sync_key (
        key TEXT PRIMARY KEY NOT NULL, clock TEXT NOT NULL, value TEXT, seen TEXT NOT NULL,
        frontier TEXT NOT NULL DEFAULT '{}'
      ) WITHOUT ROWID;
      CREATE TABLE sync_dirty (key TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;
      CREATE TABLE sync_identity (
        id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1), device TEXT NOT NULL,
        joins INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE sync_outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, line TEXT NOT NULL);
      CREATE TABLE sync_later (
        id INTEGER PRIMARY KEY AUTOINCREMENT, device TEXT NOT NULL, line TEXT NOT NULL
      );
      CREATE TABLE sync_peer (
        device TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL, latest TEXT,
        generation INTEGER NOT NULL DEFAULT -1, log_offset INTEGER NOT NULL DEFAULT 0,
        log_stamp TEXT, snapshot_stamp TEXT, heard_at TEXT,
        skipped INTEGER NOT NULL DEFAULT 0, skipped_why TEXT
      );
      CREATE TABLE sync_conflict (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        key TEXT NOT NULL, clock TEXT NOT NULL, value TEXT NOT NULL, seen TEXT NOT NULL,
        kept_at TEXT NOT NULL, dropped BOOLEAN NOT NULL DEFAULT 0,
        UNIQUE (key, clock)
      );
      CREATE TRIGGER sync_entry_added AFTER INSERT ON flow_entry
        WHEN EXISTS (SELECT 1 FROM sync_self)
        BEGIN INSERT INTO sync_dirty (key) SELECT k FROM (SELECT 'entry/' || NEW.day || '/' || NEW.flow
          || CASE WHEN NEW.key = '' THEN '' ELSE '/' || NEW.key END AS k)
          WHERE NOT EXISTS (SELECT 1 FROM sync_dirty WHERE key = k); END;
      CREATE TRIGGER sync_entry_changed AFTER UPDATE ON flow_entry
        WHEN EXISTS (SELECT 1 FROM sync_self)
        BEGIN
          INSERT INTO sync_dirty (key) SELECT k FROM (SELECT 'entry/' || OLD.day || '/' || OLD.flow
            || CASE WHEN OLD.key = '' THEN '' ELSE '/' || OLD.key END AS k)
          WHERE NOT EXISTS (SELECT 1 FROM sync_dirty WHERE key = k);
          INSERT INTO sync_dirty (key) SELECT k FROM (SELECT 'entry/' || NEW.day || '/' || NEW.flow
            || CASE WHEN NEW.key = '' THEN '' ELSE '/' || NEW.key END AS k)
          WHERE NOT EXISTS (SELECT 1 FROM sync_dirty WHERE key = k);
        END;
      CREATE TRIGGER sync_entry_removed AFTER DELETE ON flow_entry
        WHEN EXISTS (SELECT 1 FROM sync_self)
        BEGIN INSERT INTO sync_dirty (key) SELECT k FROM (SELECT 'entry/' || OLD.day || '/' || OLD.flow
          || CASE WHEN OLD.key = '' THEN '' ELSE '/' || OLD.key END AS k)
          WHERE NOT EXISTS (SELECT 1 FROM sync_dirty WHERE key = k); END;
      CREATE TRIGGER sync_pause_added AFTER INSERT ON pause WHEN EXISTS (SELECT 1 FROM sync_self)
        BEGIN INSERT INTO sync_dirty (key) SELECT k FROM (SELECT 'pause/' || NEW.first_day AS k)
          WHERE NOT EXISTS (SELECT 1 FROM sync_dirty WHERE key = k); END;
      CREATE TRIGGER sync_pause_changed AFTER UPDATE ON pause WHEN EXISTS (SELECT 1 FROM sync_self)
        BEGIN
          INSERT INTO sync_dirty (key) SELECT k FROM (SELECT 'pause/' || OLD.first_day AS k)
          WHERE NOT EXISTS (SELECT 1 FROM sync_dirty WHERE key = k);
          INSERT INTO sync_dirty (key) SELECT k FROM (SELECT 'pause/' || NEW.first_day AS k)
          WHERE NOT EXISTS (SELECT 1 FROM sync_dirty WHERE key = k);
        END;
      CREATE TRIGGER sync_pause_removed AFTER DELETE ON pause WHEN EXISTS (SELECT 1 FROM sync_self)
        BEGIN INSERT INTO sync_dirty (key) SELECT k FROM (SELECT 'pause/' || OLD.first_day AS k)
          WHERE NOT EXISTS (SELECT 1 FROM sync_dirty WHERE key = k); END;
      CREATE TRIGGER sync_slot_added AFTER INSERT ON slot_schedule
        WHEN EXISTS (SELECT 1 FROM sync_self)
        BEGIN INSERT INTO sync_dirty (key) SELECT k FROM (SELECT 'slot/' || NEW.slot AS k)
          WHERE NOT EXISTS (SELECT 1 FROM sync_dirty WHERE key = k); END;
      CREATE TRIGGER sync_slot_changed AFTER UPDATE ON slot_schedule
        WHEN EXISTS (SELECT 1 FROM sync_self)
        BEGIN
          INSERT INTO sync_dirty (key) SELECT k FROM (SELECT 'slot/' || OLD.slot AS k)
          WHERE NOT EXISTS (SELECT 1 FROM sync_dirty WHERE key = k);
          INSERT INTO sync_dirty (key) SELECT k FROM (SELECT 'slot/' || NEW.slot AS k)
          WHERE NOT EXISTS (SELECT 1 FROM sync_dirty WHERE key = k);
        END;
      CREATE TRIGGER sync_slot_removed AFTER DELETE ON slot_schedule
        WHEN EXISTS (SELECT 1 FROM sync_self)
        BEGIN INSERT INTO sync_dirty (key) SELECT k FROM (SELECT 'slot/' || OLD.slot AS k)
          WHERE NOT EXISTS (SELECT 1 FROM sync_dirty WHERE key = k); END;
      CREATE TRIGGER sync_setting_added AFTER INSERT ON setting
        WHEN NEW.key = 'celebrations' AND EXISTS (SELECT 1 FROM sync_self)
        BEGIN INSERT INTO sync_dirty (key) SELECT k FROM (SELECT 'setting/celebrations' AS k)
          WHERE NOT EXISTS (SELECT 1 FROM sync_dirty WHERE key = k); END;
      CREATE TRIGGER sync_setting_changed AFTER UPDATE ON setting
        WHEN (NEW.key = 'celebrations' OR OLD.key = 'celebrations')
          AND EXISTS (SELECT 1 FROM sync_self)
        BEGIN INSERT INTO sync_dirty (key) SELECT k FROM (SELECT 'setting/celebrations' AS k)
          WHERE NOT EXISTS (SELECT 1 FROM sync_dirty WHERE key = k); END;
      CREATE TRIGGER sync_setting_removed AFTER DELETE ON setting
        WHEN OLD.key = 'celebrations' AND EXISTS (SELECT 1 FROM sync_self)
        BEGIN INSERT INTO sync_dirty (key) SELECT k FROM (SELECT 'setting/celebrations' AS k)
          WHERE NOT EXISTS (SELECT 1 FROM sync_dirty WHERE key = k); END;
    """,
    // Version 13: the sync triggers exist only while this device syncs (`joinSync` makes
    // them, `leaveSync` drops them; a device that syncs keeps them, see `migrate`), and are
    // written shorter: SQLite parses every trigger at each open, and these twelve were a tenth
    // of the start of every command that reads the database. (Dropped by hand: IF EXISTS.)
    """
      DROP TRIGGER IF EXISTS sync_entry_added;
      DROP TRIGGER IF EXISTS sync_entry_changed;
      DROP TRIGGER IF EXISTS sync_entry_removed;
      DROP TRIGGER IF EXISTS sync_pause_added;
      DROP TRIGGER IF EXISTS sync_pause_changed;
      DROP TRIGGER IF EXISTS sync_pause_removed;
      DROP TRIGGER IF EXISTS sync_slot_added;
      DROP TRIGGER IF EXISTS sync_slot_changed;
      DROP TRIGGER IF EXISTS sync_slot_removed;
      DROP TRIGGER IF EXISTS sync_setting_added;
      DROP TRIGGER IF EXISTS sync_setting_changed;
      DROP TRIGGER IF EXISTS sync_setting_removed;
    """,
    // Version 14: one order for every journal `undo` reads (`seq`, given from one count across
    // them, so two changes made in the same second are taken back latest first whichever
    // journal holds them; rows from before it are 0, ordered by their time as before), and the
    // journal of pauses: the pause a change was about, and every pause as it was before the
    // change and after it (`nudge pause`, `resume`, `pause remove`), as JSON {first_day, last_day}.
    """
      ALTER TABLE entry_change ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE habit_change ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE pause_change (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        made_on TEXT NOT NULL, at TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,
        pause TEXT NOT NULL, before TEXT NOT NULL, after TEXT NOT NULL, undone BOOLEAN NOT NULL DEFAULT 0
      );
    """,
    // Version 15: a habit travels (sync) under an id of its own that every computer knows it
    // by, whatever its name or its row's number here (`uid`, 16 hex digits that sort in the
    // order habits were added: see `insertHabit`; the habits there are get their row's number
    // in its place, so they keep their order, before any added later); and the person's plan
    // files as sync knows them; the habits two computers each had under one name before they
    // synced, known by the smaller id on both (`habit_alias`: the other id, and which it is
    // now: `sync_brought` marks what an upgrade brings); and the person's plan files as sync
    // knows them (`plan_file`: each `NAME.plan`'s text, so a plan file travels
    // as every other kind does, and `seen`, what the folder held when it was last read or
    // written: the folder is the person's, this a copy).
    """
      CREATE TABLE sync_brought (key TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;
      CREATE TABLE habit_alias (uid TEXT PRIMARY KEY NOT NULL, habit_uid TEXT NOT NULL)
        WITHOUT ROWID;
      CREATE TABLE plan_file (
        name TEXT PRIMARY KEY NOT NULL, text TEXT NOT NULL, seen TEXT
      ) WITHOUT ROWID;
      ALTER TABLE habit ADD COLUMN uid TEXT;
      UPDATE habit SET uid = printf('%012x', id) || lower(hex(randomblob(8))) WHERE uid IS NULL;
      CREATE UNIQUE INDEX habit_uid ON habit (uid);
    """,
    // Version 16: a day said no (`failed`), a day's note, a habit's tags, limit, or quitting.
    """
      ALTER TABLE habit_check ADD COLUMN failed BOOLEAN NOT NULL DEFAULT 0;
      ALTER TABLE habit_check ADD COLUMN note TEXT;
      ALTER TABLE habit ADD COLUMN tags TEXT NOT NULL DEFAULT '';
      ALTER TABLE habit ADD COLUMN at_most BOOLEAN NOT NULL DEFAULT 0;
      ALTER TABLE habit ADD COLUMN quit BOOLEAN NOT NULL DEFAULT 0;
    """,
    // Version 17: a habit's further reminder times after its first (`also_at`, one a line).
    """
      ALTER TABLE habit ADD COLUMN also_at TEXT NOT NULL DEFAULT '';
    """,
    // Version 18: one journal for `undo` and `redo`, over the keys sync knows (an entry, a
    // habit, a habit's day, a pause, a reminder time, a plan choice) and the settings: each
    // change's steps (`change`: its place in the one count, shared by its steps), what it was
    // (`kind`, `about`), and each key's value before and after as sync writes it (NULL: none).
    // The three journals it replaces (entries, habits, pauses) are carried over into it and
    // dropped after this step (`carryJournalsOver`), so the day's undo goes on.
    """
      CREATE TABLE change_journal (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        change INTEGER NOT NULL, made_on TEXT NOT NULL, at TEXT NOT NULL,
        kind TEXT NOT NULL, about TEXT,
        key TEXT NOT NULL, before TEXT, after TEXT,
        undone BOOLEAN NOT NULL DEFAULT 0
      );
      CREATE INDEX change_journal_change ON change_journal (change);
      CREATE INDEX change_journal_key ON change_journal (key);
    """,
  ]
}
