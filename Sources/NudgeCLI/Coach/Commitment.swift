import NudgeCore

extension ReviewEntry {
  /// The commitment as said on `flowDay`: "Today I will …" for today, "That day I will …" (or
  /// `saying`) for a day filled in or edited, whose heading names it.
  func commitment(on flowDay: FlowDay, saying past: String = "That day I will") -> String? {
    guard let text = commitment else { return nil }
    guard flowDay.isPast else { return text }
    return past + text.dropFirst("Today I will".count)
  }
}
