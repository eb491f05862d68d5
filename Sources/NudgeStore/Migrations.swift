import NudgeCore

extension AppDatabase {
  /// Each schema version's changes from the one before, in order (index 0 builds version 1).
  static let migrations: [String] = [
    """
      PRAGMA application_id = \(DatabaseFileHeader.applicationID);
      CREATE TABLE prep (
        day TEXT PRIMARY KEY NOT NULL,
        sticky_notes BOOLEAN NOT NULL,
        produce BOOLEAN NOT NULL,
        water BOOLEAN NOT NULL,
        breakfast BOOLEAN NOT NULL,
        other TEXT,
        saved_at TEXT NOT NULL
      );
      CREATE TABLE review (
        day TEXT PRIMARY KEY NOT NULL,
        why TEXT, challenge TEXT, challenge_other TEXT, swap TEXT,
        commit_to TEXT, commit_from TEXT,
        saved_at TEXT NOT NULL
      );
      CREATE TABLE checkin (
        day TEXT PRIMARY KEY NOT NULL,
        followed BOOLEAN, feel TEXT, blocker TEXT,
        saved_at TEXT NOT NULL
      );
      CREATE TABLE help_note (
        id TEXT PRIMARY KEY NOT NULL,
        day TEXT NOT NULL,
        category TEXT NOT NULL,
        note TEXT, coach TEXT,
        at TEXT NOT NULL
      );
      CREATE INDEX help_note_day ON help_note(day);
      CREATE TABLE setting (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
    """,
    """
      CREATE TABLE achievement (key TEXT PRIMARY KEY NOT NULL, earned_on TEXT NOT NULL);
      CREATE TABLE state (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
    """,
    """
      CREATE TABLE slot_schedule (
        slot TEXT PRIMARY KEY NOT NULL, expression TEXT NOT NULL, enabled BOOLEAN NOT NULL
      );
      CREATE TABLE reminder_claim (
        slot TEXT NOT NULL, elapse INTEGER NOT NULL, PRIMARY KEY (slot, elapse)
      );
      CREATE TABLE reminder_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        slot TEXT NOT NULL, elapse INTEGER, outcome TEXT NOT NULL, at TEXT NOT NULL
      );
    """,
    """
      CREATE TABLE draft (
        flow TEXT NOT NULL, day TEXT NOT NULL, answers TEXT NOT NULL, saved_at TEXT NOT NULL,
        PRIMARY KEY (flow, day)
      );
      CREATE TABLE entry_change (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        made_on TEXT NOT NULL, at TEXT NOT NULL, kind TEXT NOT NULL, flow TEXT NOT NULL,
        before TEXT, after TEXT, undone BOOLEAN NOT NULL DEFAULT 0
      );
      CREATE INDEX entry_change_made_on ON entry_change(made_on);
    """,
    """
      CREATE TABLE pause (first_day TEXT PRIMARY KEY NOT NULL, last_day TEXT NOT NULL);
    """,
    // Version 6: the key-value `state` table's strings become tables of their own, its rows
    // moved over ("snooze.SLOT" = "DUE ELAPSE", -1 for no elapse; "trigger.SLOT" = epoch
    // seconds; "reward.*"; "said.NOTE"), unreadable ones dropped as the old reads ignored them.
    """
      CREATE TABLE snooze (slot TEXT PRIMARY KEY NOT NULL, due INTEGER NOT NULL, elapse INTEGER);
      INSERT INTO snooze (slot, due, elapse)
        SELECT slot, CAST(due AS INTEGER),
          CASE WHEN CAST(elapse AS INTEGER) < 0 THEN NULL ELSE CAST(elapse AS INTEGER) END
        FROM (
          SELECT substr(key, 8) AS slot, substr(value, 1, instr(value, ' ') - 1) AS due,
            substr(value, instr(value, ' ') + 1) AS elapse
          FROM state WHERE key LIKE 'snooze.%' AND instr(value, ' ') > 0
        )
        WHERE slot IN ('morning', 'midday', 'evening', 'weekly')
          AND CAST(CAST(due AS INTEGER) AS TEXT) = due
          AND CAST(CAST(elapse AS INTEGER) AS TEXT) = elapse;

      CREATE TABLE slot_trigger (slot TEXT PRIMARY KEY NOT NULL, at INTEGER NOT NULL);
      INSERT INTO slot_trigger (slot, at)
        SELECT substr(key, 9), CAST(value AS INTEGER) FROM state
        WHERE key LIKE 'trigger.%'
          AND substr(key, 9) IN ('morning', 'midday', 'evening', 'weekly')
          AND CAST(CAST(value AS INTEGER) AS TEXT) = value;

      CREATE TABLE reward_state (
        id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
        draws INTEGER NOT NULL,
        recent_messages TEXT NOT NULL,
        last_celebration TEXT
      );
      INSERT INTO reward_state (id, draws, recent_messages, last_celebration)
        SELECT 1,
          coalesce((SELECT CAST(value AS INTEGER) FROM state WHERE key = 'reward.draws'), 0),
          coalesce(
            (SELECT value FROM state WHERE key = 'reward.recent-messages'
              AND CASE WHEN json_valid(value) THEN json_type(value) = 'array' END),
            (SELECT json_array(value) FROM state WHERE key = 'reward.last-message'),
            '[]'),
          (SELECT value FROM state WHERE key = 'reward.last-celebration' AND json_valid(value))
        WHERE EXISTS (SELECT 1 FROM state WHERE key LIKE 'reward.%');

      CREATE TABLE said_note (note TEXT PRIMARY KEY NOT NULL);
      INSERT INTO said_note (note) SELECT substr(key, 6) FROM state WHERE key LIKE 'said.%';

      DROP TABLE state;
    """,
    // Version 7: a log entry may say why (`open-failed`: which terminal failed, and how).
    """
      ALTER TABLE reminder_log ADD COLUMN detail TEXT;
    """,
    // Version 8: entries of the flows plan files define, their answers a JSON object by
    // question id (no column per question); which plans a person turned on or off.
    """
      CREATE TABLE flow_entry (
        flow TEXT NOT NULL, day TEXT NOT NULL, answers TEXT NOT NULL, saved_at TEXT NOT NULL,
        PRIMARY KEY (flow, day)
      );
      CREATE INDEX flow_entry_day ON flow_entry(day);
      CREATE TABLE plan_choice (plan TEXT PRIMARY KEY NOT NULL, is_on BOOLEAN NOT NULL);
    """,
    // Version 9: every flow's entries in one table, the coach's too — its prep, review and
    // check-in columns and its help notes become answers by the ids coach.plan gives its
    // questions (yes/no as "yes"/"no", a missing answer absent). A row is found by its day and
    // flow, and a help note (several a day) by its id in `key` too ('' for the others); no
    // rowid: the key is the table's order, so a row costs no second copy of it in an index.
    """
      CREATE TABLE entry (
        day TEXT NOT NULL, flow TEXT NOT NULL, key TEXT NOT NULL DEFAULT '',
        answers TEXT NOT NULL, saved_at TEXT NOT NULL,
        PRIMARY KEY (day, flow, key)
      ) WITHOUT ROWID;
      INSERT INTO entry (day, flow, answers, saved_at)
        SELECT day, flow, answers, saved_at FROM flow_entry;
      INSERT INTO entry (day, flow, answers, saved_at)
        SELECT day, 'prep', json_patch('{}', json_object(
            'sticky-notes', CASE WHEN sticky_notes THEN 'yes' ELSE 'no' END,
            'produce', CASE WHEN produce THEN 'yes' ELSE 'no' END,
            'water', CASE WHEN water THEN 'yes' ELSE 'no' END,
            'breakfast', CASE WHEN breakfast THEN 'yes' ELSE 'no' END,
            'other', other)),
          saved_at
        FROM prep;
      INSERT INTO entry (day, flow, answers, saved_at)
        SELECT day, 'review', json_patch('{}', json_object(
            'why', why, 'challenge', challenge, 'challenge_other', challenge_other,
            'swap', swap, 'commit_to', commit_to, 'commit_from', commit_from)),
          saved_at
        FROM review;
      INSERT INTO entry (day, flow, answers, saved_at)
        SELECT day, 'checkin', json_patch('{}', json_object(
            'followed', CASE WHEN followed IS NULL THEN NULL WHEN followed THEN 'yes' ELSE 'no' END,
            'feel', feel, 'blocker', blocker)),
          saved_at
        FROM checkin;
      INSERT INTO entry (day, flow, key, answers, saved_at)
        SELECT day, 'need-help', id, json_patch('{}', json_object(
            'category', category, 'note', note, 'coach', coach)),
          at
        FROM help_note;
      DROP TABLE prep;
      DROP TABLE review;
      DROP TABLE checkin;
      DROP TABLE help_note;
      DROP TABLE flow_entry;
      ALTER TABLE entry RENAME TO flow_entry;
      CREATE UNIQUE INDEX flow_entry_key ON flow_entry(flow, key) WHERE key <> '';
    """,
    // Version 10: where the streak's walk stood at the end of a done day a week or more back
    // (`StreakCheckpoint`, as JSON), so a read walks only the days since; any change to a done
    // or paused day on or before it throws it away (the triggers), whatever writes it. The undo
    // journal keeps only its latest day (undo and redo reach only today's changes; each journaled
    // write now drops the days before its own).
    """
      CREATE TABLE streak_checkpoint (
        id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1), through TEXT NOT NULL, state TEXT NOT NULL
      );
      CREATE TRIGGER streak_checkpoint_entry_added AFTER INSERT ON flow_entry
        WHEN NEW.day <= (SELECT through FROM streak_checkpoint)
        BEGIN DELETE FROM streak_checkpoint; END;
      CREATE TRIGGER streak_checkpoint_entry_removed AFTER DELETE ON flow_entry
        WHEN OLD.day <= (SELECT through FROM streak_checkpoint)
        BEGIN DELETE FROM streak_checkpoint; END;
      CREATE TRIGGER streak_checkpoint_entry_moved AFTER UPDATE OF day ON flow_entry
        WHEN OLD.day IS NOT NEW.day AND (
          OLD.day <= (SELECT through FROM streak_checkpoint)
          OR NEW.day <= (SELECT through FROM streak_checkpoint))
        BEGIN DELETE FROM streak_checkpoint; END;
      CREATE TRIGGER streak_checkpoint_pause_added AFTER INSERT ON pause
        WHEN NEW.first_day <= (SELECT through FROM streak_checkpoint)
        BEGIN DELETE FROM streak_checkpoint; END;
      CREATE TRIGGER streak_checkpoint_pause_removed AFTER DELETE ON pause
        WHEN OLD.first_day <= (SELECT through FROM streak_checkpoint)
        BEGIN DELETE FROM streak_checkpoint; END;
      CREATE TRIGGER streak_checkpoint_pause_changed AFTER UPDATE ON pause
        WHEN (OLD.first_day IS NOT NEW.first_day AND (
            OLD.first_day <= (SELECT through FROM streak_checkpoint)
            OR NEW.first_day <= (SELECT through FROM streak_checkpoint)))
          OR (OLD.last_day IS NOT NEW.last_day
            AND min(OLD.first_day, NEW.first_day) <= (SELECT through FROM streak_checkpoint)
            AND (OLD.last_day <= (SELECT through FROM streak_checkpoint)
              OR NEW.last_day <= (SELECT through FROM streak_checkpoint)))
        BEGIN DELETE FROM streak_checkpoint; END;
      DELETE FROM entry_change WHERE made_on < (SELECT max(made_on) FROM entry_change);
    """,
    // Version 11: the person's own habits (`nudge habit`), what was recorded of each day (done,
    // with an amount for a measurable one, or skipped), and their own undo journal. A removed
    // habit stays, marked, while its removal can be undone (today), and goes with its journal.
    """
      CREATE TABLE habit (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL, question TEXT NOT NULL, every TEXT NOT NULL, at TEXT,
        target INTEGER, unit TEXT, since TEXT NOT NULL,
        archived BOOLEAN NOT NULL DEFAULT 0, removed BOOLEAN NOT NULL DEFAULT 0
      );
      CREATE TABLE habit_check (
        habit INTEGER NOT NULL, day TEXT NOT NULL, done BOOLEAN NOT NULL, value INTEGER,
        saved_at TEXT NOT NULL,
        PRIMARY KEY (habit, day)
      ) WITHOUT ROWID;
      CREATE TABLE habit_change (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        made_on TEXT NOT NULL, at TEXT NOT NULL, kind TEXT NOT NULL, habit INTEGER NOT NULL,
        before TEXT, after TEXT, undone BOOLEAN NOT NULL DEFAULT 0
      );
    """,
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
  ]
}
