import NudgeCore
import NudgeStore

/// The plans as this person has them: every plan Nudge knows, and which are on (a plan not
/// turned on or off follows its file's `on`). The coach's four first flows run from their own
/// commands (`CoachPlan.compiledFlowIDs`); every other flow, the coach's others too, runs from
/// its definition (`DefinedFlowCommand`).
struct PlanSet {
  /// The coach's plan: always on.
  static let coach = "coach"

  var catalogue: PlanCatalogue
  var choices: [String: Bool]

  /// Whether `plan` is on: the coach's always (a choice to turn it off, which an import or a
  /// sync line could carry, is not one this Nudge takes), any other as chosen, else its file's.
  func isOn(_ plan: Plan) -> Bool {
    plan.name == Self.coach || (choices[plan.name] ?? plan.onByDefault)
  }

  /// The flows plans define (the coach's compiled four aside), with their plan, on or off.
  var definedFlows: [(flow: FlowDefinition, plan: Plan)] {
    catalogue.entries.flatMap { entry in
      entry.plan.flows.filter {
        entry.plan.name != Self.coach || !CoachPlan.compiledFlowIDs.contains($0.id)
      }.map { ($0, entry.plan) }
    }
  }

  /// What this Nudge makes of a defined flow's entry from outside (an import, a sync line).
  enum EntryVerdict: Equatable {
    case taken
    /// No plan here defines its flow (yet: a plan file may arrive later).
    case undefined
    /// Its answers are not ones its flow's definition takes; why.
    case refused(String)
  }

  /// Holds an entry of a defined flow to its definition, as a flow's own run would: a flow
  /// some plan here defines, answers its questions take, enough to count. Import and sync
  /// both ask this.
  func verdict(on entry: AnsweredEntry) -> EntryVerdict {
    guard let flow = flow(entry.flow)?.flow else { return .undefined }
    do throws(FlowAnswers.Refusal) {
      let checked = try entry.answers.checked(against: flow)
      guard checked.applying(to: flow) == checked, checked.counts(for: flow) else {
        throw FlowAnswers.Refusal(message: "\(flow.countsRule), and only questions it asks")
      }
      return .taken
    } catch {
      return .refused(error.message)
    }
  }

  /// The defined flows of the plans that are on.
  var flowsOn: [FlowDefinition] { definedFlows.filter { isOn($0.plan) }.map(\.flow) }

  /// The defined flows of the plans that are on that `slot`'s reminder offers.
  func flowsOn(_ slot: ReminderSource) -> [FlowDefinition] {
    definedFlows.filter { isOn($0.plan) && slotOf($0.flow, in: $0.plan) == slot }.map(\.flow)
  }

  /// The slot whose reminder offers `flow` of `plan`: a built-in one, or the plan's own.
  func slotOf(_ flow: FlowDefinition, in plan: Plan) -> ReminderSource? {
    flow.slot.map { ReminderSource.of(plan: plan.name, id: $0) }
  }

  /// The plans' own reminder times (`[[slot]]`): on when its plan is, at its plan's time
  /// (`expression` turns plain words into a calendar expression, nil for one that does not
  /// parse, which `plan check` refuses anyway).
  func slotSchedules(expression: (String) -> String?) -> [SlotSchedule] {
    catalogue.entries.flatMap { entry in
      entry.plan.slots.compactMap { planSlot in
        expression(planSlot.at).map {
          SlotSchedule(
            slot: .of(plan: entry.plan.name, id: planSlot.id), expression: $0,
            enabled: isOn(entry.plan))
        }
      }
    }
  }

  /// A plan slot's title (its reminder's), nil for a built-in one.
  func title(of slot: ReminderSource) -> String? {
    guard case .plan(let plan, let id) = slot else { return nil }
    return catalogue.plan(named: plan)?.plan.slots.first { $0.id == id }.map {
      VisibleText.escaped($0.title)
    }
  }

  /// The defined flow whose word is `word`, and its plan.
  func flow(_ word: String) -> (flow: FlowDefinition, plan: Plan)? {
    definedFlows.first { $0.flow.word == word }
  }

  /// The definition of a defined flow that is on; nil for the coach's and for one that is
  /// not (a plan turned off, or a file since removed).
  func definitionOn(_ flow: Flow) -> FlowDefinition? {
    guard let word = flow.definedWord, let found = self.flow(word), isOn(found.plan) else {
      return nil
    }
    return found.flow
  }

  /// A defined flow's title as it is shown: its definition's, or its word when no plan has it
  /// now.
  func title(of word: String) -> String {
    flow(word).map { VisibleText.escaped($0.flow.title) } ?? VisibleText.escaped(word)
  }
}

extension Context {
  /// The plans as this person has them (the catalogue read now, the choices from `db`).
  func plans(_ db: AppDatabase) throws -> PlanSet {
    PlanSet(catalogue: planCatalogue(), choices: try db.planChoices())
  }

  /// The plans as `plans(db)` has them, for a caller that asks only of the plans that are on
  /// (`flowsOn`, `definitionOn`, a plan slot's title and schedule): when the person has no plan
  /// files, a built-in plan that is off is not read (reading the sleep plan was a sixth of the
  /// today view's start). The coach's is `CoachPlan.plan`, read once. (A built-in plan has no
  /// reminder times of its own, PlanFileTests holds: leaving an off one unread drops no
  /// disabled schedule.)
  func plansOn(_ db: AppDatabase) throws -> PlanSet {
    let choices = try db.planChoices()
    let catalogue = Self.planCatalogue(
      environment, files: platform.files, builtIn: builtInPlans, timeProblem: planTimeProblem,
      readingBuiltIn: { name in
        name == PlanSet.coach || (choices[name] ?? !BuiltInPlans.offByDefault.contains(name))
      })
    return PlanSet(catalogue: catalogue, choices: choices)
  }

  /// An achievement's title: a defined flow's first is titled by its plan's `first`.
  func achievementTitle(_ achievement: Achievement) -> String {
    guard case .firstOf(let word) = achievement,
      let flow = PlanSet(catalogue: planCatalogue(), choices: [:]).flow(word)?.flow
    else { return achievement.title }
    return VisibleText.escaped(flow.first)
  }

  /// Every reminder's schedule: the built-in slots' (stored or default), then the plans' own
  /// slots (on while their plan is on: an install enables their timers, `plan off` disables).
  /// `plans`: the person's plans when the caller has read them already.
  /// Then each habit's reminders (`habit.hID`, `habit.hID.2` …), while it is not archived.
  func allSchedules(_ db: AppDatabase, plans known: PlanSet? = nil) throws -> [SlotSchedule] {
    try db.schedules()
      + (known ?? plans(db)).slotSchedules { try? planSlotSpec($0).normalized }
      + db.habits(includingArchived: false).flatMap { habit in
        zip(habit.reminderSlots, habit.reminderTimes).compactMap { slot, time in
          (try? planSlotSpec(time).normalized).map {
            SlotSchedule(slot: slot, expression: $0, enabled: true)
          }
        }
      }
  }

  /// A plan slot's `at` (plain words as `schedule set` takes them, or a calendar expression)
  /// read as a calendar expression.
  /// One that fires more often than once a minute is refused (`CalendarSpec.reminderProblem`).
  func planSlotSpec(_ at: String) throws(CalendarSpec.ParseError) -> CalendarSpec {
    let spec = try CalendarSpec.parse(
      PlainTime.expression(at) ?? at, localZone: timeZone, zoneExists: zones.exists)
    if let problem = spec.reminderProblem { throw CalendarSpec.ParseError(message: problem) }
    return spec
  }
}
