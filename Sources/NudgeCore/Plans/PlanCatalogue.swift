/// The plans Nudge knows: the built-in ones, then the person's plan files (by file name). A
/// broken file is set aside with its error and never stops the others; a file whose plan name
/// or flow word another plan already has is set aside too.
public struct PlanCatalogue: Sendable {
  /// A plan and where it came from.
  public struct Entry: Sendable {
    public var plan: Plan
    /// nil for a built-in plan; else the file's path.
    public var file: String?
  }

  /// A file that could not be taken, and why.
  public struct Problem: Equatable, Sendable {
    public var file: String
    public var error: PlanFileError
    /// `FILE:LINE: what is wrong`.
    public var described: String { error.described(file: file) }
  }

  public var entries: [Entry] = []
  public var problems: [Problem] = []

  /// The most plan files read from the person's folder.
  public static let maxFiles = 32

  /// Reads the built-in plans and `files` (path, and text, nil when it could not be read or
  /// is over the size a plan may have). `commandWords`: the words `nudge` has for its own
  /// commands, which no flow may take. `readingBuiltIn`: whether a built-in plan (by name) is
  /// read; one left unread is not in `entries` (only a caller that asks nothing of it may
  /// leave one: see `Context.plansOn`).
  public static func load(
    builtIn: [(name: String, text: String)] = BuiltInPlans.texts,
    files: [(path: String, text: String?)], commandWords: Set<String>,
    timeProblem: (String) -> String? = { _ in nil },
    readingBuiltIn: (String) -> Bool = { _ in true }, unreadable: [String: String] = [:]
  ) -> PlanCatalogue {
    var catalogue = PlanCatalogue()
    var taken = commandWords
    func add(_ text: String, file: String?, name: String) {
      do throws(PlanFileError) {
        // a built-in plan's words are nudge's own commands already (prep is coach's)
        let reserved = file == nil ? [] : taken
        // the coach's text as it ships is read once for the whole run (`CoachPlan`)
        let plan =
          file == nil && name == "coach" && text == CoachPlan.text
          ? CoachPlan.plan
          : try PlanFile.read(text, reservedWords: reserved, timeProblem: timeProblem)
        // a habit's reminder slot is `habit.hID`: no plan may take the name
        if plan.name == "habit" {
          throw PlanFileError(
            line: PlanFile.nameLine(in: text),
            "the plan name 'habit' is Nudge's own (your habits' reminders); give this one another name"
          )
        }
        if let other = catalogue.entries.first(where: { $0.plan.name == plan.name }) {
          throw PlanFileError(
            line: PlanFile.nameLine(in: text),
            "a plan named '\(plan.name)' is already there (\(other.file ?? "built in")); give this one another name"
          )
        }
        if let clash = plan.flows.first(where: { taken.contains($0.word) && file != nil }) {
          throw PlanFileError(
            line: 1, "flow word '\(clash.word)' is already taken by a command or another plan")
        }
        taken.formUnion(plan.flows.map(\.word))
        catalogue.entries.append(Entry(plan: plan, file: file))
      } catch {
        catalogue.problems.append(Problem(file: file ?? "plans/\(name).plan", error: error))
      }
    }
    for (name, text) in builtIn where readingBuiltIn(name) { add(text, file: nil, name: name) }
    if files.count > maxFiles {
      catalogue.problems.append(
        Problem(
          file: files[maxFiles].path,
          error: PlanFileError(
            line: 1,
            "not read, nor the \(files.count - maxFiles - 1) after it: at most \(maxFiles) plan files are read, in name order"
          )))
    }
    for (path, text) in files.prefix(maxFiles) {
      guard let text else {
        catalogue.problems.append(
          Problem(
            file: path,
            error: PlanFileError(
              line: 1,
              unreadable[path]
                ?? "it cannot be read as a plan (a regular file of at most \(PlanFile.maxBytes / 1024) KiB)"
            )))
        continue
      }
      add(text, file: path, name: path)
    }
    return catalogue
  }

  /// The plan named `name`, matched case-insensitively.
  public func plan(named name: String) -> Entry? {
    entries.first { $0.plan.name == name.lowercased() }
  }
}
