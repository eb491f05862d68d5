import Foundation
import Testing

/// Text or JSON is chosen in one place: `Context.render` (App/Rendering.swift) prints a
/// command's result as JSON or runs its text; no other file of the CLI encodes JSON for
/// output or branches on `--json` to print.
@Suite struct RenderingTests {
  typealias Map = ArchitectureMapTests

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
      // a branch on --json that prints is the renderer's: `if json {` is not written again
      #expect(
        !code.contains(#/if (options\.)?json \{/#),
        "NudgeCLI/\(path) chooses text or JSON itself; call ctx.render")
    }
    #expect(renderers == 1, "App/Rendering.swift no longer encodes JSON")
  }
}
