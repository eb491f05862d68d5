import Glibc
import NudgeCore

/// The first day of the week of the person's locale, as the C library has it (what `locale
/// first_weekday` prints): the fallback when `week-start` is not set.
public enum LocaleWeek {
  /// The start the locale named by `environment`'s LC_ALL, LC_TIME or LANG gives; nil for C,
  /// POSIX or none (Nudge keeps ISO 8601's Monday then), a locale not installed, or a name
  /// that is no locale's (the environment is hostile: a path or a long name is not read).
  public static func start(environment: [String: String]) -> WeekStart? {
    let name =
      ["LC_ALL", "LC_TIME", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
      ?? ""
    guard !name.isEmpty, name != "C", name != "POSIX", !name.hasPrefix("C."),
      name.utf8.count <= 64, !name.contains("/"), !name.hasPrefix("."),
      name.unicodeScalars.allSatisfy({ (0x21..<0x7F).contains($0.value) })
    else { return nil }
    guard let locale = newlocale(LC_TIME_MASK, name, nil) else { return nil }
    defer { freelocale(locale) }
    guard let first = nl_langinfo_l(nl_item(_NL_TIME_FIRST_WEEKDAY), locale) else { return nil }
    // a word item: the C library hands its value back in the pointer's low 32 bits
    let base = nl_langinfo_l(nl_item(_NL_TIME_WEEK_1STDAY), locale)
    let yyyymmdd = Int(UInt32(truncatingIfNeeded: UInt(bitPattern: base)))
    return WeekStart.ofLocale(firstWeekday: Int(first[0]), weekOneStartsOn: yyyymmdd)
  }
}
