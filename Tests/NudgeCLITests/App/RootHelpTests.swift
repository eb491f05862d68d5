import ArgumentParser
import Testing

@testable import NudgeCLI

/// `nudge --help` is written without the parser: it must be the parser's text, byte for byte.
@Suite struct RootHelpTests {
  @Test func theRootHelpIsTheParsersAtEveryWidth() {
    for width in RootHelp.widths.lowerBound...200 {
      let ours = RootHelp.text(width: width)
      let parsers = NudgeCLI.Nudge.helpMessage(columns: width)
      #expect(ours == parsers, "width \(width)")
      if ours != parsers { break }
    }
  }

  @Test func theRootHelpIsWhatTheParserPrintsForEachWayOfAsking() throws {
    for arguments in [["--help"], ["-h"], ["help"]] {
      #expect(RootHelp.isAsked(arguments))
      // the parser's own way: its help command, or the clean exit it throws
      do {
        var command = try NudgeMain.parse(arguments, environment: [:])
        try command.run()
        Issue.record("no help for \(arguments): \(type(of: command))")
      } catch {
        let printed = NudgeMain.report(error, arguments: arguments)
        #expect(printed.status == 0 && printed.stderr.isEmpty)
        #expect(printed.stdout == RootHelp.text(width: RootHelp.width()) + "\n", "\(arguments)")
      }
    }
    for other in [["--help", "prep"], ["prep", "--help"], ["--version"], [], ["help", "prep"]] {
      #expect(!RootHelp.isAsked(other), "\(other)")
    }
  }

  @Test func theCommandWordsAreTheCommandsNames() {
    let names = NudgeCLI.Nudge.configuration.subcommands.map { $0._commandName }
    #expect(NudgeCLI.Nudge.commandWords == Set(names + ["help"]))
  }

  @Test func wrappingBreaksAtSpacesAndNewlinesAndIndents() {
    #expect(RootHelp.wrapped("one two three", width: 8) == "one two\nthree")
    #expect(RootHelp.wrapped("a\n\nb c", width: 10, indent: 2) == "  a\n\n  b c")
    #expect(RootHelp.wrapped("unbreakable word", width: 5) == "unbreakable\nword")
  }
}
