import NudgeCore
import NudgeLinux

extension Context {
  /// The folder of the person's plan files: $XDG_CONFIG_HOME/nudge/plans (an absolute
  /// XDG_CONFIG_HOME only), else ~/.config/nudge/plans.
  var planFolder: String? { Self.planFolder(environment) }

  static func planFolder(_ environment: [String: String]) -> String? {
    if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
      return config + "/nudge/plans"
    }
    guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
    return home + "/.config/nudge/plans"
  }

  /// The built-in plans and the person's `*.plan` files (but `excluding`, a file being checked).
  func planCatalogue(excluding: String? = nil) -> PlanCatalogue {
    Self.planCatalogue(
      environment, files: platform.files, builtIn: builtInPlans, excluding: excluding,
      timeProblem: planTimeProblem)
  }

  /// The catalogue as `environment` places the person's plan files, read through `files`.
  /// `readingBuiltIn`: which built-in plans are read when the person has no plan files (with
  /// files, every one is: a file is judged against all of them).
  /// `arriving`: plan files an import brings, read beside the folder's as if dropped in.
  static func planCatalogue(
    _ environment: [String: String], files fileSystem: any FileSystem,
    builtIn: [(name: String, text: String)] = BuiltInPlans.texts, excluding: String? = nil,
    timeProblem: (String) -> String? = { _ in nil },
    readingBuiltIn: (String) -> Bool = { _ in true },
    arriving: [(path: String, text: String)] = []
  ) -> PlanCatalogue {
    var files: [(path: String, text: String?)] = arriving.map { ($0.path, $0.text) }
    var unreadable: [String: String] = [:]
    if let folder = planFolder(environment) {
      // held to the sync folder's rules: a folder others may change holds no plan of the
      // person's (a file put there runs as their flow)
      let folderProblem = fileSystem.othersMayChange(folder)
      // all the names (up to 10,000), sorted, so the files read are the first by name
      let names = fileSystem.names(in: folder, limit: 10_000) ?? []
      for name in names where name.hasSuffix(".plan") && !name.hasPrefix(".") {
        let path = folder + "/" + name
        if let excluding, fileSystem.isSameFile(path, excluding) { continue }
        if let folderProblem {
          unreadable[path] =
            "not read: the plans folder \(folder) is not yours alone (\(folderProblem)); run chmod go-w \(ShellWord.quoted(folder))"
          files.append((path, nil))
          continue
        }
        switch planFileText(path, files: fileSystem) {
        case .success(let text): files.append((path, text))
        case .failure(let why):
          unreadable[path] = why.message
          files.append((path, nil))
        }
      }
    }
    return PlanCatalogue.load(
      builtIn: builtIn, files: files, commandWords: Nudge.commandWords, timeProblem: timeProblem,
      readingBuiltIn: files.isEmpty ? readingBuiltIn : { _ in true }, unreadable: unreadable)
  }

  /// A plan file's text, or why it is not one: a file only its person may change (the sync
  /// folder's rule), a regular file of at most `PlanFile.maxBytes`, UTF-8 throughout (the
  /// first byte that is not, by its offset); a leading byte-order mark is dropped.
  static func planFileText(_ path: String, files: any FileSystem) -> Result<String, InputError> {
    switch files.read(path, limit: PlanFile.maxBytes) {
    case .failure(.tooLarge):
      return .failure(
        InputError(
          "it is larger than \(PlanFile.maxBytes / 1024) KiB, the most a plan file may be"))
    case .failure(.notRegular(let kind)):
      return .failure(InputError("it is \(kind), not a regular file"))
    case .failure(.cannotOpen(let why)):
      return .failure(InputError("it cannot be opened (\(why.lowercased()))"))
    case .success(var bytes):
      if let problem = files.othersMayChange(path) {
        return .failure(
          InputError(
            "not read: \(problem), and a plan file is yours alone to change; make it yours, with chown if need be, and run chmod go-w \(ShellWord.quoted(path))"
          ))
      }
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
      if let offset = UTF8Text.firstInvalidByte(bytes) {
        return .failure(
          InputError(
            "byte \(offset) is not UTF-8 text (a plan file is UTF-8); save it as UTF-8 and check again"
          ))
      }
      return .success(String(decoding: bytes, as: UTF8.self))
    }
  }

  /// What is wrong with a plan slot's time (nil: plain words or a calendar expression Nudge
  /// reads).
  func planTimeProblem(_ at: String) -> String? {
    do {
      _ = try planSlotSpec(at)
      return nil
    } catch {
      return
        "'\(at)' is not a time Nudge reads (\(error.message)): write it like '7:30', '9pm', 'weekdays 7:30' or as a systemd calendar expression"
    }
  }
}

extension Context {
  /// The words of every flow a plan defines, on or off (the coach's compiled four aside):
  /// what a `nudge://` link's host and the word after `nudge` may name.
  var definedFlowWords: Set<String> { Self.definedFlowWords(planCatalogue()) }

  static func definedFlowWords(_ catalogue: PlanCatalogue) -> Set<String> {
    Set(PlanSet(catalogue: catalogue, choices: [:]).definedFlows.map(\.flow.word))
  }
}
