// Loop Habit Tracker's "full backup" (Settings → Export full backup) is a byte copy of its
// SQLite database (uhabits-android/src/main/java/org/isoron/uhabits/utils/DatabaseUtils.kt,
// saveDatabaseCopy). What Nudge relies on, checked in github.com/iSoron/uhabits at 5aa8744e
// (2025-08-13; core paths under uhabits-core/src/jvmMain/, models in
// java/org/isoron/uhabits/core/models/):
//
// - Schema: `PRAGMA user_version` is the schema version, 25 today (core/Constants.kt,
//   DATABASE_VERSION). A new database is made at version 8 and brought up by
//   resources/migrations/09.sql … 25.sql (uhabits-android/.../HabitsDatabaseOpener.kt,
//   core/database/MigrationHelper.kt); Loop refuses versions below 8, and its own importer
//   refuses files newer than it (core/io/LoopDBImporter.kt, canHandle: both tables `Habits`
//   and `Repetitions` present, version ≤ 25) and migrates older ones. Columns by version:
//   09 Habits(id, archived, color, description, freq_den, freq_num, highlight, name,
//   position, reminder_hour, reminder_min), Repetitions(id, habit, timestamp); 11
//   reminder_days (default 127); 16 Habits.type (default 0), Repetitions.value (default 2);
//   18 target_type, target_value (real), unit; 22 Repetitions rebuilt NOT NULL with a unique
//   (habit, timestamp) index, orphans and NULLs deleted; 23 question (the old description
//   moves there; description becomes the notes); 24 uuid; 25 Repetitions.notes. Read by
//   models/sqlite/records/HabitRecord.kt and EntryRecord.kt (`@Table(name = "Repetitions")`).
// - Repetitions.timestamp: milliseconds since 1970 of the day's midnight in UTC, the day
//   being the person's local date (models/Timestamp.kt truncates to a multiple of 86400000;
//   utils/DateUtils.kt getStartOfToday adds the zone's offset first). So day = timestamp
//   ÷ 86400000 days after 1970-01-01, independent of any zone.
// - Repetitions.value (models/Entry.kt): 2 YES_MANUAL (the person checked it), 1 YES_AUTO
//   (not done but not expected, Loop's fill-in for non-daily habits), 0 NO, 3 SKIP, -1
//   UNKNOWN. Numerical habits store the amount × 1000 rounded to an integer
//   (core/ui/screens/habits/list/ListHabitsBehavior.kt), -1 for none and 3 for a skip
//   (ScoreList.kt and StreakList.kt compare with Entry.SKIP for numerical habits too).
//   YES_AUTO is derived: Loop recomputes it from the checks (EntryList.recomputeFrom), so
//   Nudge does not import it as a check.
// - Habits.reminder_days (models/WeekdayList.kt): bit i set means weekday i, where i follows
//   Timestamp.weekday = Calendar.DAY_OF_WEEK % 7: 0 Saturday, 1 Sunday, 2 Monday … 6 Friday
//   (core/ui/NotificationTray.kt indexes the days with it; WeekdayPickerDialog lists them
//   from Saturday). 127 = every day. A reminder exists when reminder_hour and reminder_min
//   are both set (HabitRecord.copyTo).
// - Habits.freq_num / freq_den: wanted freq_num times in freq_den days; equal numbers mean
//   daily (models/Frequency.kt). type 0 yes/no, 1 numerical (HabitType.kt); target_type 0
//   at least, 1 at most (NumericalHabitType.kt); both throw on other values in Loop.
//   target_value is the numerical habit's target over freq_den days, in `unit`s.
import CSQLite
import Glibc
import NudgeCore

/// Why a file could not be read as a Loop backup: one line saying what is wrong and what
/// Nudge expects.
public struct LoopBackupError: Error, Equatable, Sendable, CustomStringConvertible {
  public let message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }
}

/// A Loop Habit Tracker backup, as read from its SQLite file.
public struct LoopBackup: Equatable, Sendable {
  /// One of Loop's habits, with its checks and skips.
  public struct Habit: Equatable, Sendable {
    public var name: String
    /// What Loop asks ("Did you meditate today?").
    public var question: String
    /// Loop's notes about the habit.
    public var description: String
    /// Wanted `numerator` times in `denominator` days (1 and 1: daily).
    public var numerator: Int
    public var denominator: Int
    public var isMeasurable: Bool
    /// A measurable habit's target over `denominator` days, in `unit`s; nil for yes/no.
    public var target: Double?
    public var unit: String
    /// The target is a ceiling ("at most 2 coffees"), not a floor.
    public var targetIsAtMost: Bool
    public var archived: Bool
    /// The habit's place in Loop's list.
    public var position: Int
    public var reminder: Reminder?
    /// By day, oldest first, at most one a day.
    public var marks: [Mark]
    /// Due on these weekdays only (0 = Sunday … 6 = Saturday), where the tracker says so
    /// (Habitica's weekly dailies); nil: its numerator and denominator say how often.
    public var weekdays: Set<Int>? = nil
    /// A habit to break (Habitica's habit with only its minus): every day clean but a no.
    public var quit = false

    public init(
      name: String, question: String = "", description: String = "", numerator: Int = 1,
      denominator: Int = 1, isMeasurable: Bool = false, target: Double? = nil,
      unit: String = "", targetIsAtMost: Bool = false, archived: Bool = false,
      position: Int = 0, reminder: Reminder? = nil, marks: [Mark] = []
    ) {
      self.name = name
      self.question = question
      self.description = description
      self.numerator = numerator
      self.denominator = denominator
      self.isMeasurable = isMeasurable
      self.target = target
      self.unit = unit
      self.targetIsAtMost = targetIsAtMost
      self.archived = archived
      self.position = position
      self.reminder = reminder
      self.marks = marks
    }
  }

  /// A habit's reminder: the time of day and the weekdays it fires on.
  public struct Reminder: Equatable, Sendable {
    public var hour: Int
    public var minute: Int
    /// 0 = Sunday … 6 = Saturday (Nudge's `Day.weekday`).
    public var weekdays: Set<Int>

    public init(hour: Int, minute: Int, weekdays: Set<Int>) {
      self.hour = hour
      self.minute = minute
      self.weekdays = weekdays
    }
  }

  /// What the person recorded on one day.
  public struct Mark: Equatable, Sendable {
    public var day: Day
    public var kind: Kind

    /// A check (with its amount), a skip, or a no.
    public enum Kind: Equatable, Sendable {
      /// Yes/no: 1; measurable: the real amount (Loop's value ÷ 1000), 0 included.
      case done(Double)
      case skipped
      /// A yes/no habit's NO (0), marked by the person: Nudge's failed day.
      case failed
    }

    /// The person's note on the day (Loop 2.1 and later), as Loop kept it.
    public var note: String?

    public init(day: Day, kind: Kind, note: String? = nil) {
      self.day = day
      self.kind = kind
      self.note = note
    }
  }

  public var habits: [Habit]
  /// The tracker they come from, as a refusal or a note names it ("Loop", "harsh").
  public var source = "Loop"

  public init(habits: [Habit], source: String = "Loop") {
    self.habits = habits
    self.source = source
  }

  /// The newest schema Nudge knows (Loop's DATABASE_VERSION), and the oldest Loop reads.
  public static let knownVersions = 8...25
  /// What Nudge keeps (`Habit.maxCount`, `Habit.maxDaysInAll`): a backup past them is
  /// refused before it is read, rather than taken and then unable to export.
  public static let maxHabits = NudgeCore.Habit.maxCount
  public static let maxRepetitions = NudgeCore.Habit.maxDaysInAll
  /// The longest name, question, description or unit, in characters.
  public static let maxTextLength = 1000
  /// The earliest day a mark may have.
  public static let earliestDay = Day(year: 2000, month: 1, day: 1)

  /// Reads the backup at `path`; throws `LoopBackupError` (one line saying what is wrong and
  /// what Nudge expects) for anything that is not a readable Loop backup. Marks more than a
  /// year after today (UTC) are refused.
  public static func read(path: String) throws(LoopBackupError) -> LoopBackup {
    try read(path: path, today: Day(ordinal: Int(time(nil)) / 86400))
  }

  /// The same, with marks up to a year after `today` accepted.
  public static func read(path: String, today: Day) throws(LoopBackupError) -> LoopBackup {
    let expects =
      "Nudge reads the file Loop Habit Tracker writes with Settings → Export full backup"
    try checkFile(path: path, expects: expects)
    do {
      // read-only and immutable: SQLite takes no lock and writes nothing, not even a journal
      let db = try SQLiteConnection(path: path, readOnly: true, immutable: true)
      try db.execute("PRAGMA query_only = 1")
      return try LoopReader(
        db: db, path: path, expects: expects, latestDay: today.adding(days: 366)
      )
      .read()
    } catch let error as LoopBackupError {
      throw error
    } catch let error as SQLiteError where [SQLITE_NOTADB, SQLITE_CORRUPT].contains(error.code) {
      throw LoopBackupError("\(path) is damaged or not a database (\(error.message)); \(expects).")
    } catch {
      throw LoopBackupError("Cannot read \(path) as a Loop backup: \(error); \(expects).")
    }
  }

  /// Refuses what is not a readable, non-empty SQLite file before SQLite opens it.
  private static func checkFile(path: String, expects: String) throws(LoopBackupError) {
    var info = stat()
    guard stat(path, &info) == 0 else {
      let reason = String(cString: strerror(errno))
      throw LoopBackupError("Cannot read \(path): \(reason); \(expects).")
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw LoopBackupError("\(path) is not a file; \(expects).")
    }
    guard info.st_size > 0 else {
      throw LoopBackupError("\(path) is empty (0 bytes), not a Loop backup; \(expects).")
    }
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      let reason = String(cString: strerror(errno))
      throw LoopBackupError("Cannot read \(path): \(reason); \(expects).")
    }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: 100)
    let got = pread(fd, &bytes, 100, 0)
    bytes.removeLast(100 - max(0, got))
    guard DatabaseFileHeader(bytes) != nil else {
      throw LoopBackupError("\(path) is not a SQLite database, so not a Loop backup; \(expects).")
    }
  }
}
