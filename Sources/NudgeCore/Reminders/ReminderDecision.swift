extension Reminder {
  /// What one run of `nudge notify` was asked for: which slot's reminder, and why now.
  public enum Request: Equatable, Sendable {
    /// Posted now by hand (`nudge notify SLOT`).
    case now(ReminderSource)
    /// `nudge notify demo`: the reminder for this part of the day, now.
    case demo
    /// A timer's firing (`--scheduled`): the rules of DESIGN §3 decide.
    case scheduled(ReminderSource)
    /// A stored snooze coming back (`--snoozed`).
    case snoozed(ReminderSource)

    /// The slot asked for; nil for the demo, whose slot the time of day decides.
    public var slot: ReminderSource? {
      switch self {
      case .now(let slot), .scheduled(let slot), .snoozed(let slot): slot
      case .demo: nil
      }
    }
  }
}

extension Reminder {
  /// What `FireReminder` decided, reading once and claiming in one transaction, that a reminder
  /// run does.
  public enum Decision: Equatable, Sendable {
    /// No elapse, or no snooze, of the slot is due.
    case nothingDue(ReminderSource)
    /// Nothing to post: the outcome (a skip, or `duplicate` of an elapse another run claimed) is
    /// logged already, with the claim.
    case logged(ReminderSource, Reminder.Outcome, elapse: Int?)
    /// Post this reminder; its elapse is claimed, and nothing is logged yet.
    case post(Reminder.Posting)
  }
}

extension Reminder {
  /// A reminder to post, with what its session needs, read once: the settings, what it offers
  /// and the streak its body shows.
  public struct Posting: Equatable, Sendable {
    public var slot: ReminderSource
    /// `nudge notify demo`: logged under "demo", not its slot; relevant for ten minutes.
    public var isDemo: Bool
    /// The elapse it is for (nil when posted by hand).
    public var elapse: Int?
    /// What is left to offer today; nil when every flow the slot offers is done already.
    public var offer: Reminder.Offer?
    public var streak: Int
    public var settings: Settings
    /// The flows done today when it was decided (read once, for the reminder's whole life).
    public var doneToday: Set<Flow>

    public init(
      slot: ReminderSource, isDemo: Bool = false, elapse: Int?, offer: Reminder.Offer?, streak: Int,
      settings: Settings, doneToday: Set<Flow>
    ) {
      self.doneToday = doneToday
      self.slot = slot
      self.isDemo = isDemo
      self.elapse = elapse
      self.offer = offer
      self.streak = streak
      self.settings = settings
    }

    /// How long it stays relevant from `now` (epoch seconds): until the slot's staleness window,
    /// counted from its elapse, ends (a minute at least); the demo ten minutes.
    public func relevantSeconds(now: Int) -> Double {
      isDemo ? 600 : Double(max(60, (elapse ?? now) + settings.stalenessSeconds(for: slot) - now))
    }

    /// Whose reminder its log entries are: the demo's, or its slot's.
    public var logged: Reminder.LoggedSlot { isDemo ? .demo : .slot(slot) }
  }
}
