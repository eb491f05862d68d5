import NudgeCore

extension AppDatabase {
  /// Each schema version's changes from the one before, in order (index 0 builds version 1).
  static let migrations: [String] = migrationsBeforeSync + migrationsSinceSync

  /// Versions 1 to 11: the coach's flows, achievements, reminders, plans, the streak's
  /// checkpoints and the person's own habits.
  static let migrationsBeforeSync: [String] = [
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
  ]
}
