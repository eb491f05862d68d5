"""A Loop Habit Tracker "full backup" (its SQLite database) for tests, made with Loop's own schema.

    python3 scripts/nudgetest/loop_backup.py OUT.db [--habits sample|none] [--user-version N]

or, from Python, `build(path, habits=SAMPLE_HABITS, user_version=25)`.

Loop (github.com/iSoron/uhabits) makes a new database by setting `PRAGMA user_version = 8`
(uhabits-android/.../HabitsDatabaseOpener.kt, onCreate) and then running the migrations
uhabits-core/src/jvmMain/resources/migrations/09.sql ... 25.sql in order, each file's
statements one by one, setting user_version to the last (MigrationHelper.kt, the Android
SQLiteOpenHelper; DATABASE_VERSION = 25 in uhabits-core/.../core/Constants.kt). The
statements below are those files verbatim (uhabits commit 5aa8744ef4c8, 2025-08-13; each
file's last change noted). The export copies that database file as it is
(uhabits-android/.../utils/DatabaseUtils.kt, saveDatabaseCopy).

Loop's encodings (uhabits-core/src/jvmMain/java/org/isoron/uhabits/core/models/):
  - Repetitions.timestamp: milliseconds since 1970 of the day's midnight in UTC, the day being
    the local calendar date (Timestamp.kt truncates to a multiple of 86400000;
    DateUtils.getStartOfToday adds the zone's offset before truncating).
  - Repetitions.value (Entry.kt): 2 YES_MANUAL, 1 YES_AUTO, 0 NO, 3 SKIP, -1 UNKNOWN; for a
    numerical habit the amount times 1000, rounded (ListHabitsBehavior.kt).
  - Habits.reminder_days (WeekdayList.kt, Timestamp.weekday): bit i is weekday i with
    0 = Saturday, 1 = Sunday, 2 = Monday ... 6 = Friday; 127 every day.
  - Habits.type 0 yes/no, 1 numerical (HabitType.kt); target_type 0 at least, 1 at most
    (NumericalHabitType.kt); freq_num times in freq_den days (Frequency.kt).
"""

import argparse
import datetime as dt
import os
import sqlite3
import sys

DATABASE_VERSION = 25

MIGRATIONS = [
    # uhabits-core/src/jvmMain/resources/migrations/09.sql @ 9fd36d8d5326e00290c75cce6c6caa8075438101
    (9, """create table Habits (
    id integer primary key autoincrement,
    archived integer,
    color integer,
    description text,
    freq_den integer,
    freq_num integer,
    highlight integer,
    name text,
    position integer,
    reminder_hour integer,
    reminder_min integer
);

create table Checkmarks (
    id integer primary key autoincrement,
    habit integer references habits(id),
    timestamp integer,
    value integer
);

create table Repetitions (
    id integer primary key autoincrement,
    habit integer references habits(id),
    timestamp integer
);

create table Streak (
    id integer primary key autoincrement,
    end integer,
    habit integer references habits(id),
    length integer,
    start integer
);

create table Score (
    id integer primary key autoincrement,
    habit integer references habits(id),
    score integer,
    timestamp integer
);
"""),
    # uhabits-core/src/jvmMain/resources/migrations/10.sql @ 9fd36d8d5326e00290c75cce6c6caa8075438101
    (10, """delete from Score;
delete from Streak;
delete from Checkmarks;"""),
    # uhabits-core/src/jvmMain/resources/migrations/11.sql @ 9fd36d8d5326e00290c75cce6c6caa8075438101
    (11, """alter table Habits add column reminder_days integer not null default 127;"""),
    # uhabits-core/src/jvmMain/resources/migrations/12.sql @ 9fd36d8d5326e00290c75cce6c6caa8075438101
    (12, """delete from Score;
delete from Streak;
delete from Checkmarks;"""),
    # uhabits-core/src/jvmMain/resources/migrations/13.sql @ 9fd36d8d5326e00290c75cce6c6caa8075438101
    (13, """create index idx_score_habit_timestamp on Score(habit, timestamp);
create index idx_checkmark_habit_timestamp on Checkmarks(habit, timestamp);
create index idx_repetitions_habit_timestamp on Repetitions(habit, timestamp);
create index idx_streak_habit_end on Streak(habit, end);"""),
    # uhabits-core/src/jvmMain/resources/migrations/14.sql @ 9fd36d8d5326e00290c75cce6c6caa8075438101
    (14, """update habits set color=0 where color=-2937041;
update habits set color=1 where color=-1684967;
update habits set color=2 where color=-415707;
update habits set color=3 where color=-5262293;
update habits set color=4 where color=-13070788;
update habits set color=5 where color=-16742021;
update habits set color=6 where color=-16732991;
update habits set color=7 where color=-16540699;
update habits set color=8 where color=-10603087;
update habits set color=9 where color=-7461718;
update habits set color=10 where color=-2614432;
update habits set color=11 where color=-13619152;
update habits set color=12 where color=-5592406;
update habits set color=0 where color<0 or color>12;"""),
    # uhabits-core/src/jvmMain/resources/migrations/15.sql @ 9fd36d8d5326e00290c75cce6c6caa8075438101
    (15, """delete from Score;
delete from Streak;
delete from Checkmarks;"""),
    # uhabits-core/src/jvmMain/resources/migrations/16.sql @ 9fd36d8d5326e00290c75cce6c6caa8075438101
    (16, """alter table Habits add column type integer not null default 0;
alter table Repetitions add column value integer not null default 2;"""),
    # uhabits-core/src/jvmMain/resources/migrations/17.sql @ 9fd36d8d5326e00290c75cce6c6caa8075438101
    (17, """drop table Score;
create table Score (
    id integer primary key autoincrement,
    habit integer references habits(id),
    score real,
    timestamp integer);

create index idx_score_habit_timestamp on Score(habit, timestamp);

delete from streak;
delete from checkmarks;"""),
    # uhabits-core/src/jvmMain/resources/migrations/18.sql @ 9fd36d8d5326e00290c75cce6c6caa8075438101
    (18, """alter table Habits add column target_type integer not null default 0;
alter table Habits add column target_value real not null default 0;
alter table Habits add column unit text not null default "";"""),
    # uhabits-core/src/jvmMain/resources/migrations/19.sql @ 9fd36d8d5326e00290c75cce6c6caa8075438101
    (19, """create table Events (
    id integer primary key autoincrement,
    timestamp integer,
    message text,
    server_id integer
);"""),
    # uhabits-core/src/jvmMain/resources/migrations/20.sql @ 9fd36d8d5326e00290c75cce6c6caa8075438101
    (20, """drop table checkmarks;
drop table streak;
drop table score;
"""),
    # uhabits-core/src/jvmMain/resources/migrations/21.sql @ 9fd36d8d5326e00290c75cce6c6caa8075438101
    (21, """update habits set color=19 where color=12;
update habits set color=17 where color=11;
update habits set color=15 where color=10;
update habits set color=14 where color=9;
update habits set color=13 where color=8;
update habits set color=10 where color=7;
update habits set color=9 where color=6;
update habits set color=8 where color=5;
update habits set color=7 where color=4;
update habits set color=5 where color=3;
update habits set color=4 where color=2;
update habits set color=0 where color<0 or color>19;"""),
    # uhabits-core/src/jvmMain/resources/migrations/22.sql @ 9fd36d8d5326e00290c75cce6c6caa8075438101
    (22, """delete from repetitions where habit not in (select id from habits);
delete from repetitions where timestamp is null;
delete from repetitions where habit is null;
delete from repetitions where rowid not in (
    select min(rowid) from repetitions group by habit, timestamp
);

begin transaction;

    alter table Repetitions rename to RepetitionsBak;
    create table Repetitions (
        id integer primary key autoincrement,
        habit integer not null references habits(id),
        timestamp integer not null,
        value integer not null);
    drop index if exists idx_repetitions_habit_timestamp;
    create unique index idx_repetitions_habit_timestamp on Repetitions(
        habit, timestamp);
    insert into Repetitions select * from RepetitionsBak;
    drop table RepetitionsBak;

commit;

pragma foreign_keys=ON;"""),
    # uhabits-core/src/jvmMain/resources/migrations/23.sql @ 9fd36d8d5326e00290c75cce6c6caa8075438101
    (23, """alter table Habits add column question text;

update Habits set question = description;

update Habits set description = "";"""),
    # uhabits-core/src/jvmMain/resources/migrations/24.sql @ 9fd36d8d5326e00290c75cce6c6caa8075438101
    (24, """alter table habits add column uuid text;
update habits set uuid = lower(hex(randomblob(16) || id));"""),
    # uhabits-core/src/jvmMain/resources/migrations/25.sql @ d38f83e96135080a5ff9276e3f127477cab7091e
    (25, """alter table Repetitions add column notes text;"""),
]

# Loop's Entry values (Entry.kt)
YES_MANUAL, YES_AUTO, NO, SKIP, UNKNOWN = 2, 1, 0, 3, -1

# Habits.reminder_days bits (WeekdayList.kt): bit 0 Saturday, 1 Sunday, 2 Monday ... 6 Friday
SATURDAY, SUNDAY, MONDAY, TUESDAY, WEDNESDAY, THURSDAY, FRIDAY = (1 << i for i in range(7))


def timestamp(day):
    """Loop's Repetitions.timestamp for a calendar day ("2026-11-02"): its UTC midnight in ms."""
    date = dt.date.fromisoformat(day)
    return (date - dt.date(1970, 1, 1)).days * 86400000


# Each habit: the Habits columns Loop writes (HabitRecord.kt) and its repetitions as
# (day, value) with Loop's encodings. Positions are Loop's list order.
SAMPLE_HABITS = [
    dict(
        name="Meditate", question="Did you meditate today?", description="10 minutes",
        freq_num=1, freq_den=1, color=8, position=0, reminder_hour=7, reminder_min=30,
        reminder_days=MONDAY | WEDNESDAY | FRIDAY, archived=0, type=0, target_type=0,
        target_value=0.0, unit="",
        repetitions=[
            ("2026-11-01", YES_MANUAL), ("2026-11-02", YES_MANUAL), ("2026-11-03", YES_MANUAL),
            ("2026-11-04", NO), ("2026-11-05", UNKNOWN), ("2026-11-06", YES_MANUAL),
        ],
    ),
    dict(
        name="Gym", question="Did you go to the gym?", description="",
        freq_num=3, freq_den=7, color=4, position=1, reminder_hour=None, reminder_min=None,
        reminder_days=0, archived=0, type=0, target_type=0, target_value=0.0, unit="",
        repetitions=[
            ("2026-11-02", YES_MANUAL), ("2026-11-03", YES_AUTO), ("2026-11-04", YES_MANUAL),
            ("2026-11-06", YES_MANUAL),
        ],
    ),
    dict(
        name="Read", question="How many pages did you read?", description="",
        freq_num=1, freq_den=1, color=10, position=2, reminder_hour=21, reminder_min=0,
        reminder_days=127, archived=0, type=1, target_type=0, target_value=20.0, unit="pages",
        repetitions=[
            ("2026-11-01", 20000), ("2026-11-02", 12500), ("2026-11-03", 0), ("2026-11-04", SKIP),
            ("2026-11-05", UNKNOWN), ("2026-11-06", 31250),
        ],
    ),
    dict(
        name="Floss", question="Did you floss?", description="",
        freq_num=1, freq_den=1, color=1, position=3, reminder_hour=None, reminder_min=None,
        reminder_days=0, archived=1, type=0, target_type=0, target_value=0.0, unit="",
        repetitions=[("2000-01-01", YES_MANUAL)],
    ),
    dict(
        name="Run", question="Did you run?", description="",
        freq_num=1, freq_den=1, color=2, position=4, reminder_hour=None, reminder_min=None,
        reminder_days=0, archived=0, type=0, target_type=0, target_value=0.0, unit="",
        repetitions=[
            ("2026-11-01", YES_MANUAL), ("2026-11-02", SKIP), ("2026-11-03", YES_MANUAL),
        ],
    ),
]

HABIT_COLUMNS = [
    "name", "question", "description", "freq_num", "freq_den", "color", "position",
    "reminder_hour", "reminder_min", "reminder_days", "highlight", "archived", "type",
    "target_type", "target_value", "unit", "uuid",
]


def build(path, habits=SAMPLE_HABITS, user_version=DATABASE_VERSION):
    """Writes a new Loop backup at `path` (replacing any file there)."""
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path, isolation_level=None)
    try:
        # Android's SQLiteOpenHelper adds this table to every database it opens
        db.execute("CREATE TABLE android_metadata (locale TEXT)")
        db.execute("INSERT INTO android_metadata VALUES ('en_US')")
        db.execute("PRAGMA user_version = 8")  # HabitsDatabaseOpener.onCreate
        for _version, sql in MIGRATIONS:
            db.executescript(sql)
        db.execute(f"PRAGMA user_version = {int(user_version)}")
        for index, habit in enumerate(habits):
            row = dict(habit, highlight=0, uuid=f"{index + 1:032x}")
            db.execute(
                f"INSERT INTO Habits ({', '.join(HABIT_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(HABIT_COLUMNS))})",
                [row[c] for c in HABIT_COLUMNS],
            )
            habit_id = db.execute("SELECT last_insert_rowid()").fetchone()[0]
            db.executemany(
                "INSERT INTO Repetitions (habit, timestamp, value, notes) VALUES (?, ?, ?, '')",
                [(habit_id, timestamp(day), value) for day, value in habit["repetitions"]],
            )
    finally:
        db.close()


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="the .db file to write")
    parser.add_argument(
        "--habits", choices=["sample", "none"], default="sample",
        help="the sample habits (default) or none")
    parser.add_argument(
        "--user-version", type=int, default=DATABASE_VERSION,
        help=f"PRAGMA user_version to leave in the file (Loop's is {DATABASE_VERSION})")
    args = parser.parse_args(argv)
    build(args.out, SAMPLE_HABITS if args.habits == "sample" else [], args.user_version)


if __name__ == "__main__":
    main(sys.argv[1:])
