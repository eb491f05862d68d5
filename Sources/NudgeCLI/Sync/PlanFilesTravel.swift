import NudgeCore
import NudgeLinux
import NudgeStore

/// The person's plan files as sync carries them. The plans folder is the person's; the store
/// keeps a copy of each file (`plan_file`) that travels as every other kind of data does: a
/// file new or changed in the folder is taken into the copy before a write (`mirror`), and a
/// file that arrives is held to every rule a file dropped into the folder is (`refusal`, so
/// nothing in one may run or name a command) and written there, the person's alone (`place`).
/// A file removed from one computer's folder is not removed from the others'.
enum PlanFilesTravel {
  /// The folder's plan files that read as text and are the person's alone (plan name →
  /// text); nil when there is no folder to read, or others may change it.
  static func here(_ ctx: Context) -> [String: String]? {
    guard let folder = ctx.planFolder else { return nil }
    let files = ctx.platform.files
    guard files.exists(folder) else { return [:] }
    if files.othersMayChange(folder) != nil { return nil }
    var found: [String: String] = [:]
    for name in files.names(in: folder, limit: 10_000) ?? [] where ExportPlanFile.isFileName(name) {
      if case .success(let text) = Context.planFileText(folder + "/" + name, files: files) {
        found[String(name.dropLast(5))] = text
      }
    }
    return found
  }

  /// Takes the folder's files into sync's copy; whether any was new or changed.
  static func mirror(_ ctx: Context, _ db: AppDatabase) -> Bool {
    guard let files = here(ctx) else { return false }
    return (try? db.mirrorPlanFiles(files)) ?? false
  }

  /// Why a plan file that arrives as `name` is not taken: the problem the catalogue finds in
  /// it read as if dropped into the folder (beside the files there, in place of one of its
  /// name); nil when it is taken.
  static func refusal(_ ctx: Context, name: String, text: String) -> String? {
    guard let folder = ctx.planFolder else {
      return "there is no plans folder here (HOME is not set)"
    }
    let path = folder + "/" + name + ".plan"
    let catalogue = Context.planCatalogue(
      ctx.environment, files: ctx.platform.files, excluding: path,
      timeProblem: ctx.planTimeProblem, arriving: [(path, text)])
    return catalogue.problems.first { $0.file == path }.map { VisibleText.escaped($0.described) }
  }

  /// Writes the plan files of `names` as sync now has them into the folder (0600), each that
  /// differs from the file there; says a file it cannot write. Returns the names written.
  static func place(_ ctx: Context, _ db: AppDatabase, _ names: Set<String>) -> [String] {
    guard !names.isEmpty, let folder = ctx.planFolder,
      let synced = try? db.syncedPlanFiles()
    else { return [] }
    let files = ctx.platform.files
    if files.exists(folder), let problem = files.othersMayChange(folder) {
      ctx.output.writeError(
        "nudge: sync: plan files arrived, and the plans folder \(VisibleText.escaped(folder)) is not yours alone (\(problem)); run chmod go-w \(ShellWord.quoted(folder)) and they are written at the next sync.\n"
      )
      return []
    }
    var placed: [String] = []
    for name in names.sorted() {
      guard let text = synced[name] else { continue }
      let path = folder + "/" + name + ".plan"
      if case .success(let now) = Context.planFileText(path, files: files), now == text {
        continue
      }
      do {
        try files.createDirectory(folder)
        try files.writeAtomically(Array(text.utf8), to: path, mode: 0o600)
        placed.append(name)
      } catch {
        ctx.output.writeError(
          "nudge: sync: could not write the plan file \(VisibleText.escaped(path)) that arrived (\(error.reason)); it is tried again at the next sync that brings it.\n"
        )
      }
    }
    return placed
  }
}
