import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// The lists that must agree, held to their one source: the parser's command tree (the words
/// of commands, the completion scripts), `DeepLink.hosts` and the plans' flows (the links a
/// refusal names, deeplinks/GRAMMAR.md's routes), `Achievement.allCases` (GRAMMAR.md's keys).
@Suite struct DeepLinkListsTests {
  static let grammar: String = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("deeplinks/GRAMMAR.md")
    return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
  }()

  /// The alternatives of the grammar's production `name` (its line and the `|` lines after).
  static func production(_ name: String) -> [String] {
    let lines = grammar.components(separatedBy: "\n")
    guard let start = lines.firstIndex(where: { $0.hasPrefix(name + " ") }) else { return [] }
    var text = String(lines[start].drop { $0 != "=" }.dropFirst())
    for line in lines[(start + 1)...] {
      guard line.trimmingCharacters(in: .whitespaces).hasPrefix("|") else { break }
      text += " " + line
    }
    return text.split(separator: "|").map { alternative in
      let item = alternative.split(separator: ";")[0].trimmingCharacters(in: .whitespaces)
      let quoted = item.count > 1 && item.hasPrefix("\"") && item.hasSuffix("\"")
      return quoted ? String(item.dropFirst().dropLast()) : item
    }.filter { !$0.isEmpty }
  }

  @Test func theGrammarsRoutesAreTheParsersHostsAndTheFlowsOfPlans() {
    #expect(Self.production("route") == DeepLink.hosts + ["WORD"])
  }

  @Test func theGrammarsKeysAreTheAchievementsACelebrateLinkTakes() {
    let keys = Achievement.allCases.map(\.rawValue)
    #expect(Self.production("KEY") == keys + ["\"first-\" WORD"])
  }

  @Test func aRefusedLinkNamesEveryRouteAndTheFlowsOfPlans() {
    do {
      _ = try DeepLink.parse("nudge://lunch", flowWords: ["sleep", "challenge"])
      Issue.record("nudge://lunch was taken")
    } catch {
      let named = DeepLink.hosts + ["challenge", "sleep"]
      #expect(error.message.hasSuffix("; use " + named.joined(separator: ", ")), "\(error)")
    }
  }

  /// Every route but the ones that only open a flow of a plan is a command's word too: a link
  /// runs what the command of its name runs.
  @Test func everyRouteIsACommandsWord() {
    for host in DeepLink.hosts {
      #expect(NudgeCLI.Nudge.commandWords.contains(host), "nudge://\(host) has no command")
    }
  }

  /// The completion scripts argument-parser writes from the command tree name every command.
  @Test(arguments: ["bash", "zsh", "fish"]) func theCompletionsNameEveryCommand(_ shell: String)
    throws
  {
    let script = try Nudge()("--generate-completion-script", shell)
    try #require(script.status == 0, "\(script.stderr)")
    for word in NudgeCLI.Nudge.commandWords where word != "help" {
      #expect(script.stdout.contains(word), "the \(shell) completion never names \(word)")
    }
  }
}
