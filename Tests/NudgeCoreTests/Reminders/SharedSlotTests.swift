import Testing

@testable import NudgeCore

/// A slot shared by two plans posts one reminder that offers both: the coach's flow first,
/// the other plan's once that is done, and the reminder names what else is waiting.
@Suite struct SharedSlotTests {
  static let sleep = try! PlanFile.read(
    BuiltInPlans.texts.first { $0.name == "sleep" }!.text)

  var night: FlowDefinition { Self.sleep.flows[0] }
  var challenge: FlowDefinition { Self.sleep.flows[1] }

  @Test func theCoachsFlowComesFirstThenTheOtherPlansThenNothing() {
    let also: [Flow] = [.defined("sleep")]
    #expect(Slot.morning.offer(done: [], also: also) == .flow(.review))
    #expect(Slot.morning.offer(done: [.review], also: also) == .flow(.defined("sleep")))
    #expect(Slot.morning.offer(done: [.review, .defined("sleep")], also: also) == nil)
    let evening: [Flow] = [.defined("challenge")]
    #expect(Slot.evening.offer(done: [.prep], also: evening) == .flow(.checkin))
    #expect(
      Slot.evening.offer(done: [.prep, .checkin], also: evening) == .flow(.defined("challenge")))
    // without another plan, as before
    #expect(Slot.morning.offer(done: [.review]) == nil)
  }

  @Test func oneReminderNamesBothFlowsAndSaysTheOtherPlansInItsWords() {
    let both = DesktopNotification.reminder(.morning, streak: 3, pending: [night])
    #expect(both.title == "Review your prep")
    #expect(
      both.body.contains("\nAlso: Your sleep challenge is ready — nudge sleep\n"), "\(both.body)")
    let sleepOnly = DesktopNotification.reminder(
      .morning, streak: 3, offering: .flow(.defined("sleep")), pending: [night])
    #expect(sleepOnly.title == "Your sleep challenge is ready")
    #expect(!sleepOnly.body.contains("Also:"))
    #expect(Reminder.Offer.flow(.defined("sleep")).command == "sleep")
    #expect(Reminder.Offer.flow(.defined("sleep")).deepLink.url == "nudge://sleep")
  }
}
