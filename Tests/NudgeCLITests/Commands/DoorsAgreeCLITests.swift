import Foundation
import NudgeCore
import Testing

/// Issue 56: the typing door and the import door agree. Values at every boundary are typed as
/// a flow's flags; what typing takes exports and imports into a fresh home, and what an import
/// takes as written, typing takes too.
@Suite struct DoorsAgreeCLITests {
  static let texts: [String] = [
    "fine", "a", String(repeating: "x", count: FreeText.maxLength),
    String(repeating: "x", count: FreeText.maxLength + 1), String(repeating: "y", count: 5000),
    "esc \u{1B}[2J", "bell \u{07}", "bidi \u{202E}kcah", " leading", "trailing ", "",
    "line\nbreak", "naïve ✓", "=HYPERLINK(\"x\")", "-rf", "\\u{202E}",
  ]

  /// What an import of one review holding `why` says (nil: taken).
  func importVerdict(_ why: String) -> String? {
    let document: [String: Any] = [
      "format": "nudge-export", "version": 3, "settings": [String: String](), "prep": [],
      "review": [
        [
          "day": "2026-11-20", "why": why, "commit_to": "walk",
          "saved_at": "2026-11-20T07:00:00+01:00",
        ]
      ],
      "checkin": [], "help": [],
    ]
    let data = try! JSONSerialization.data(withJSONObject: document)
    do throws(InputError) {
      try ExportDocument.decode(data).validate()
      return nil
    } catch {
      return error.message
    }
  }

  @Test func whatTypingTakesRoundTripsAndWhatImportTakesTypingTakes() throws {
    for why in Self.texts {
      let home = Nudge()
      let typed = try home.run(
        // `--why=VALUE`: a value that starts with '-' is typed so
        ["review", "--why=\(why)", "--commit-to", "walk", "--no-input", "--no-animation"],
        now: "2026-11-20T07:00:00+01:00")
      let shown = VisibleText.escaped(String(why.prefix(20)))
      #expect([0, 64].contains(typed.status), "\(shown): \(typed.status) \(typed.stderr)")
      #expect(typed.stderr.split(separator: "\n").count <= 1, "\(shown): \(typed.stderr)")
      if importVerdict(why) == nil {
        #expect(typed.status == 0, "import takes '\(shown)', typing refused it: \(typed.stderr)")
      }
      guard typed.status == 0 else { continue }
      // the export of what typing took imports into a fresh home
      let file = home.home + "/backup.json"
      #expect(try home.run(["export", "-o", file], now: "2026-11-20T08:00:00+01:00").status == 0)
      let fresh = Nudge()
      let imported = try fresh.run(["import", file], now: "2026-11-20T08:00:00+01:00")
      #expect(imported.status == 0, "'\(shown)': \(imported.stderr)")
    }
  }
}

/// A name or a value that starts with '-' is read as an option; the error says how to give it
/// (issue 56, item 9: `habit add -2+3` said only "Missing expected argument").
@Suite struct DashedValueTests {
  @Test func aDashedNameSaysHowToGiveIt() throws {
    let nudge = InProcess()
    let refused = try nudge.run(["habit", "add", "-2+3"])
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("'-2+3' was read as an option"), "\(refused.stderr)")
    #expect(refused.stderr.contains("a name can't start with '-'"))
    #expect(refused.stderr.split(separator: "\n").count == 1)
    // a value that starts with '-' is taken after '='
    #expect(try nudge.run(["habit", "add", "Plus"]).status == 0)
    #expect(
      try nudge.run([
        "need-help", "--category", "stress", "--note=-2+3", "--no-input", "--no-animation",
      ]).status == 0)
  }
}
