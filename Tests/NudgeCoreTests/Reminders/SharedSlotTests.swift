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
    #expect(ReminderSource.morning.offer(done: [], also: also) == .flow(.review))
    #expect(ReminderSource.morning.offer(done: [.review], also: also) == .flow(.defined("sleep")))
    #expect(ReminderSource.morning.offer(done: [.review, .defined("sleep")], also: also) == nil)
    let evening: [Flow] = [.defined("challenge")]
    #expect(ReminderSource.evening.offer(done: [.prep], also: evening) == .flow(.checkin))
    #expect(
      ReminderSource.evening.offer(done: [.prep, .checkin], also: evening)
        == .flow(.defined("challenge")))
    // without another plan, as before
    #expect(ReminderSource.morning.offer(done: [.review]) == nil)
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

  @Test func aPlansOwnSlotIsNamedByPlanAndIdAndItsTimerHoldsItsTime() {
    #expect(ReminderSource.of(plan: "walking", id: "noon") == .plan(plan: "walking", slot: "noon"))
    #expect(ReminderSource.of(plan: "sleep", id: "morning") == .morning)
    #expect(ReminderSource(rawValue: "walking.noon") == .plan(plan: "walking", slot: "noon"))
    for text in ["walking", "walking.", ".noon", "a.b.c", "Walking.noon", "walking.no on"] {
      #expect(ReminderSource(rawValue: text) == nil, "\(text)")
    }
    let schedule = SlotSchedule(
      slot: .plan(plan: "walking", slot: "noon"), expression: "*-*-* 12:30:00", enabled: true)
    #expect(UnitFiles.timer(schedule).contains("OnCalendar=*-*-* 12:30:00\n"))
    #expect(UnitFiles.timer(schedule).contains("Unit=nudge-notify@walking.noon.service\n"))
    #expect(UnitFiles.dropIn(schedule) == nil)
    #expect(UnitFiles.timerName(.plan(plan: "walking", slot: "noon")) == "nudge-walking.noon.timer")
    // it offers its plan's flows only, never the week
    #expect(ReminderSource.plan(plan: "walking", slot: "noon").offer(done: []) == nil)
    #expect(
      ReminderSource.plan(plan: "walking", slot: "noon").offer(done: [], also: [.defined("walk")])
        == .flow(.defined("walk")))
    // its reminder leads with the slot's title
    let walk = FlowDefinition(
      id: "walk", word: "walk", title: "Lunch walk", slot: "noon", reminder: nil, questions: [],
      counts: .anyAnswer, first: "First walk", saved: "Saved.")
    let note = DesktopNotification.reminder(
      .plan(plan: "walking", slot: "noon"), streak: 0, offering: .flow(.defined("walk")),
      pending: [walk],
      slotTitle: "A walk at lunch?")
    #expect(note.title == "A walk at lunch?")
    #expect(note.body.hasPrefix("Lunch walk: one minute, then it counts.\n"))
  }

  @Test func aPlansWordsNeverBecomeMarkupInTheBody() {
    var walk = night
    walk.reminder = "<a href=\"file:///etc/passwd\">A walk?</a> <img src=\"/etc/x.png\"/> & more"
    let note = DesktopNotification.reminder(.morning, streak: 0, pending: [walk])
    #expect(!note.body.contains("<a ") && !note.body.contains("<img"))
    #expect(
      note.body.contains(
        "Also: &lt;a href=\"file:///etc/passwd\"&gt;A walk?&lt;/a&gt; &lt;img src=\"/etc/x.png\"/&gt; &amp; more"
      ), "\(note.body)")
  }
}
