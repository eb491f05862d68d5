import ArgumentParser

/// What `habit add` and `habit edit` both take: the habit's time, frequency, target, unit
/// and question (each left as it is by an edit that does not name it).
struct HabitFields: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "When its reminder comes: 9pm, 'weekdays 7:30' or a calendar expression; again for more (edit: replaces them; 'off': none).",
      valueName: "time"))
  var at: [String] = []

  @Option(
    help: ArgumentHelp(
      "How often: daily (add's default), weekdays, Mon,Wed,Fri, 3/week, 2/month, 'every 3 days'.",
      valueName: "spec"))
  var every: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "The amount a day that meets it (measurable; a whole number, with --unit).", valueName: "n"))
  var target: String?

  @Option(
    name: .customLong("at-most"), parsing: .unconditional,
    help: ArgumentHelp(
      "A limit instead: the day counts while its amount stays at or under N (with --unit).",
      valueName: "n"))
  var atMost: String?

  @Option(help: ArgumentHelp("The target's unit: pages, minutes, glasses.", valueName: "unit"))
  var unit: String?

  @Option(help: ArgumentHelp("What its reminder asks.", valueName: "text"))
  var question: String?

  @Option(
    name: .customLong("tag"),
    help: ArgumentHelp(
      "A tag (health, morning); again for more. Edit adds it (--untag removes).", valueName: "tag"),
    completion: .shellCommand("nudge habit tags 2>/dev/null"))
  var tags: [String] = []

  /// The amount given (`--target` or `--at-most`, not both) and whether it is a limit; nil
  /// amount when neither was given.
  func amount() throws -> (amount: Int?, atMost: Bool?) {
    if target != nil && atMost != nil {
      throw CLIError(
        "give --target (at least) or --at-most (a limit), not both", code: .usage)
    }
    if let atMost {
      return (try HabitInput.wholeNumber(atMost, option: "--at-most", from: 0), true)
    }
    if let target {
      return (try HabitInput.wholeNumber(target, option: "--target", from: 1), false)
    }
    return (nil, nil)
  }

  /// Whether none was given.
  var isEmpty: Bool {
    at.isEmpty && every == nil && target == nil && unit == nil && question == nil && tags.isEmpty
      && atMost == nil
  }
}
