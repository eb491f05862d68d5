import NudgeCore
import NudgeLinux
import NudgeStore

/// The person's plan files as sync carries them. The plans folder is the person's; the store
/// keeps a copy of each file (`plan_file`) that travels as every other kind of data does: a
/// file new or changed in the folder is taken into the copy before a write (`here`, read by
/// `SyncExchange.mirrorPlanFiles`), and a file that arrives is held to every rule a file
/// dropped into the folder is (`refusal`, so nothing in one may run or name a command) and
/// written there, the person's alone (`place`). A file removed from one computer's folder is
/// not removed from the others'.
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

  /// Why a plan file that arrives as `name` is not taken: a problem the catalogue finds with
  /// it read as if dropped into the folder (beside the files there, in place of one of its
  /// name) that it does not find without it — in the file, or one it makes for a file of the
  /// person's (a plan name or a flow's word taken twice); nil when it is taken.
  static func refusal(_ ctx: Context, name: String, text: String) -> String? {
    guard let folder = ctx.planFolder else {
      return "there is no plans folder here (HOME is not set)"
    }
    let path = folder + "/" + name + ".plan"
    func problems(_ arriving: [(path: String, text: String)]) -> [String] {
      Context.planCatalogue(
        ctx.environment, files: ctx.platform.files, builtIn: ctx.builtInPlans, excluding: path,
        timeProblem: ctx.planTimeProblem, arriving: arriving
      ).problems.map { "\($0.file): \($0.described)" }
    }
    let without = Set(problems([]))
    return problems([(path, text)]).first { !without.contains($0) }.map {
      VisibleText.escaped($0.hasPrefix(path + ": ") ? String($0.dropFirst(path.count + 2)) : $0)
    }
  }

  /// Writes into the folder (0600) each plan file sync has that the folder does not hold yet
  /// (one that arrived, or was taken from a conflict), where the folder still holds what it
  /// held when last read or written (a file edited here since is the person's: it is taken in
  /// as their edit instead); says a file it cannot write, and tries again at the next sync.
  /// Returns the names written.
  @discardableResult
  static func place(_ ctx: Context, _ db: AppDatabase) -> [String] {
    guard let folder = ctx.planFolder, let waiting = try? db.planFilesToPlace(), !waiting.isEmpty
    else { return [] }
    let files = ctx.platform.files
    if files.exists(folder), let problem = files.othersMayChange(folder) {
      ctx.output.writeError(
        "nudge: sync: plan files arrived, and the plans folder \(VisibleText.escaped(folder)) is not yours alone (\(problem)); run chmod go-w \(ShellWord.quoted(folder)) and they are written at the next sync.\n"
      )
      return []
    }
    var placed: [String] = []
    for (name, text, seen) in waiting {
      let path = folder + "/" + name + ".plan"
      // a link the person made stays theirs: said, not replaced by a file
      if files.linkTarget(path) != nil {
        ctx.output.writeError(
          "nudge: sync: the plan file \(VisibleText.escaped(path)) is a link, so the version that arrived is not written over it; replace the link with the file to take it.\n"
        )
        continue
      }
      var now: String? = nil
      if case .success(let read) = Context.planFileText(path, files: files) { now = read }
      if now == text {
        try? db.planFilePlaced(name, text: text)
        continue
      }
      guard now == nil || now == seen else { continue }
      do {
        try files.createDirectory(folder)
        try files.writeAtomically(Array(text.utf8), to: path, mode: 0o600)
        try db.planFilePlaced(name, text: text)
        placed.append(name)
      } catch {
        ctx.output.writeError(
          "nudge: sync: could not write the plan file \(VisibleText.escaped(path)) that arrived (\(error)); it is tried again at the next sync.\n"
        )
      }
    }
    return placed
  }
}
