/// Which half of the day the today view is in.
public enum DayPhase: String, Sendable {
  /// From the rollover hour until 18:00: review last night's prep.
  case morning
  /// From 18:00 until the rollover hour: check in and prep for tomorrow.
  case evening

  public static let eveningStartHour = 18

  public static func of(_ local: LocalTime, rolloverHour: Int) -> DayPhase {
    local.hour >= eveningStartHour || local.hour < rolloverHour ? .evening : .morning
  }
}
