import Foundation
import Testing

/// The rooms of Sources/ hold what their names say: no source file grows past 400 lines (one
/// that does is split along its seams, by type or by extension), and Commands/ holds commands,
/// with their own options, reports and views, not the machinery they run on (that lives in
/// App/, Flows/, Reminders/, Sync/ or Terminal/).
@Suite struct RoomsTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The most lines a source file may have.
  static let longest = 400

  /// The top-level types of Commands/ that are neither a command nor named for their
  /// command's room, each with why it lives there. Keep it short: anything else moves out.
  static let allowed: [String: String] = [
    "ChangeReport":
      "what delete and undo/redo --json print, shared by the four (ChangeReport.swift)",
    "JournalStepReport": "what undo and redo say, the same words each way (ChangeReport.swift)",
    "EntryText": "how delete, undo and redo name an entry in their messages (ChangeReport.swift)",
    "SettingUndo":
      "what undo and redo say of a reminder time, a setting or a plan's choice (SettingUndo.swift)",
    "HelpNoteID": "edit help and delete help find a craving note by the start of its id",
    "SlotChoice": "the argument of schedule on and off: a slot, or all",
    "BrokenDown": "the wall-clock fields schedule list shows the next reminder in",
    "PreviewRequest": "schedule preview's values, which App's quick path reads without the parser",
  ]

  /// Every Swift file under `folder` (from the repository's root), by its path from there.
  static func sources(under folder: String) -> [(path: String, text: String)] {
    let base = root.appendingPathComponent(folder).path
    let walker = FileManager.default.enumerator(atPath: base)
    var files: [(String, String)] = []
    while let name = walker?.nextObject() as? String {
      guard name.hasSuffix(".swift") else { continue }
      let text = (try? String(contentsOfFile: base + "/" + name, encoding: .utf8)) ?? ""
      files.append((name, text))
    }
    return files.sorted { $0.0 < $1.0 }
  }

  /// The types a file declares at its top level: each name, and what follows it on its line
  /// (the types it conforms to).
  static func topLevelTypes(_ text: String) -> [(name: String, rest: String)] {
    let modifiers: Set<Substring> = ["public", "internal", "private", "fileprivate", "final"]
    let kinds: Set<Substring> = ["struct", "enum", "class", "actor", "protocol"]
    var types: [(String, String)] = []
    for line in text.split(separator: "\n") where !(line.first?.isWhitespace ?? true) {
      let words = line.split(separator: " ").drop { modifiers.contains($0) }
      guard let kind = words.first, kinds.contains(kind), words.count > 1 else { continue }
      let name = words.dropFirst().first!.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
      types.append((String(name), words.dropFirst(2).joined(separator: " ")))
    }
    return types
  }

  @Test func noSourceFileIsLongerThan400Lines() {
    let files = Self.sources(under: "Sources")
    #expect(files.count > 100, "found only \(files.count) source files")
    for (path, text) in files {
      let lines = text.utf8.filter { $0 == UInt8(ascii: "\n") }.count
      #expect(
        lines <= Self.longest,
        "Sources/\(path) has \(lines) lines, more than \(Self.longest): split it along its seams (by type or by extension), each part in a file named for what it holds"
      )
    }
  }

  /// A top-level type in Commands/ is a command (`…Command`, conforming to a command
  /// protocol), or its room's own (named for the command whose folder or file it is in:
  /// `HabitFields` in Habit/, `EditHelpNote` in Edit.swift), or on the short list above.
  @Test func commandsHoldsCommandsAndTheirOwnHelpersOnly() {
    let protocols = ["ParsableCommand", "AsyncParsableCommand", "ContextCommand"]
    let files = Self.sources(under: "Sources/NudgeCLI/Commands")
    let declared = files.flatMap { Self.topLevelTypes($0.text).map(\.name) }
    #expect(declared.contains("HabitCommand"), "found no commands in Commands/")
    for (path, text) in files {
      // a command's room: its folder (Habit/), or the file itself (Edit.swift)
      let room = path.contains("/") ? String(path.prefix { $0 != "/" }) : String(path.dropLast(6))
      for (name, rest) in Self.topLevelTypes(text) {
        let isCommand = name.hasSuffix("Command") && protocols.contains { rest.contains($0) }
        let isRoomsOwn = name.hasPrefix(room) && declared.contains(room + "Command")
        #expect(
          isCommand || isRoomsOwn || Self.allowed[name] != nil,
          "Commands/\(path) declares \(name), which is no command nor \(room)'s own: move it to the room it belongs in (App/, Flows/, Reminders/, Sync/, Terminal/)"
        )
      }
    }
    for name in Self.allowed.keys {
      #expect(
        declared.contains(name), "\(name) is no longer in Commands/: take it off the allowed list")
    }
  }
}
