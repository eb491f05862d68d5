extension Reminder {
  /// What a habit's reminder says and does: its name, question and streak, and whether Done
  /// needs an amount (then it opens the terminal to ask it).
  public struct HabitOffer: Equatable, Sendable {
    public var id: Int
    public var name: String
    public var question: String
    public var isMeasurable: Bool
    /// Its streak and the streak's unit ("days", "weeks").
    public var streak: Int
    public var streakUnit: String

    public init(
      id: Int, name: String, question: String, isMeasurable: Bool, streak: Int,
      streakUnit: String
    ) {
      self.id = id
      self.name = name
      self.question = question
      self.isMeasurable = isMeasurable
      self.streak = streak
      self.streakUnit = streakUnit
    }

    /// The offer of `habit`, with its streak now.
    public init(_ habit: Habit, streak: Int) {
      self.init(
        id: habit.id, name: habit.name, question: habit.question,
        isMeasurable: habit.isMeasurable, streak: streak, streakUnit: habit.every.streakUnit)
    }

    /// Its name as one shell word: as it is when plain, else single-quoted (escaped first).
    public var argument: String {
      let name = VisibleText.escaped(self.name)
      if name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) { return name }
      return "'" + name.replacing("'", with: "'\\''") + "'"
    }
  }
}
