import ArgumentParser
import NudgeCore
import NudgeStore
import NudgeUseCases

extension HealthCommand {
  /// `nudge health prefer [SOURCE…]`: which source counts where several measured one thing.
  struct Prefer: ContextCommand {
    static let configuration = CommandConfiguration(
      commandName: "prefer",
      abstract: "Which source counts where several measured the same (a Watch first by default).",
      discussion: """
        'nudge health prefer Oura' reads Oura's nights and steps where it and a Watch both \
        wrote them, as the Health app's Data Sources order does; without names, the default \
        again (a source that names a Watch first, then the others by name). Every export is \
        read again, in the new order, by the next import or 'nudge health'.
        """)

    @Argument(help: "Source names, as 'nudge health --json' shows them, the preferred first.")
    var sources: [String] = []

    func run(_ ctx: Context) throws {
      for source in sources
      where source.isEmpty || source.utf8.count > 256 || source.contains(where: \.isNewline) {
        throw CLIError(
          "'\(VisibleText.escaped(source))' is not a source name (one line of 1 to 256 bytes).",
          code: .usage)
      }
      guard let store = try ctx.healthStore(create: true) else { return }
      try TakeHealthExport.prefer(sources, in: store)
      ctx.line(
        sources.isEmpty
          ? "Sources are read in the default order again: a Watch first, then by name."
          : "Preferred, in this order: "
            + sources.map { VisibleText.escaped($0) }.joined(separator: ", ")
            + "; then a Watch, then by name.")
      ctx.line("Every export is read again, in this order, by the next import (or 'nudge health').")
    }
  }
}
