import Foundation
import Testing

/// Text or JSON is chosen in one place: `Context.render` (App/Rendering.swift) prints a
/// command's result as JSON or runs its text; no other file of the CLI encodes JSON for
/// output or branches on `--json` to print.
@Suite struct RenderingTests {
  typealias Map = ArchitectureMapTests

  /// The one file that may ask `--json` before printing: the reminder printed on the terminal
  /// (and the journal) where no notification could be shown, which `--json` leaves out.
  static let fallback = "Reminders/ReminderSession.swift"

  @Test func onlyTheRendererPrintsJSON() {
    let printers = ["NudgeJSON.encode(", "JSONEncoder(", "jsonText("]
    var renderers = 0
    for (path, text) in Map.sources(of: "NudgeCLI") {
      let code = text.components(separatedBy: "\n").filter {
        !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
      }.joined(separator: "\n")
      if path == "App/Rendering.swift" {
        renderers += code.contains("NudgeJSON.encode(") ? 1 : 0
        continue
      }
      for printer in printers {
        #expect(!code.contains(printer), "NudgeCLI/\(path) prints JSON itself (\(printer))")
      }
      // a branch on --json that prints is the renderer's: not written again (the reminder's
      // fallback line is not the command's result: it stands in for the notification)
      let branches = code.matches(of: #/(if|guard|while) !?(options\.)?json\b/#).count
      #expect(
        branches == (Self.fallback == path ? 1 : 0),
        "NudgeCLI/\(path) chooses text or JSON itself; call ctx.render")
    }
    #expect(renderers == 1, "App/Rendering.swift no longer encodes JSON")
  }
}
