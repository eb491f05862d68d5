import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// The prompter: answers kept as drafts, offered again, Ctrl-D and Ctrl-C, the brackets explained.
@Suite struct PrompterTests {
  @Test func anEditsQuestionsNameTheDayOnceAndWrapBetweenWords() throws {
    let nudge = InProcess()
    try #require(
      try nudge.run(
        [
          "review", "--day", "2026-11-18", "--swap", "herbal tea", "--commit-to",
          "have a cup of herbal tea at nine", "--commit-from", "late-night snacking", "--no-input",
        ], now: "2026-11-20T09:00:00+01:00"
      ).status == 0)
    try #require(
      try nudge.run(
        ["checkin", "--day", "2026-11-18", "--followed", "yes", "--no-input"],
        now: "2026-11-20T09:00:00+01:00"
      ).status == 0)
    for columns in [50, 36] {
      let edit = try nudge.run(
        ["edit", "2026-11-18", "checkin"], now: "2026-11-20T09:05:00+01:00",
        stdin: "\n\n\n", env: ["COLUMNS": "\(columns)"], terminal: true)
      #expect(edit.status == 0, "\(edit.stderr)")
      // up to the first question's answer (what is typed is not echoed here)
      let end = try #require(edit.stdout.range(of: "[Y/n] "), "\(edit.stdout)").upperBound
      let asked = String(edit.stdout[..<end])
      let words = asked.split(whereSeparator: \.isWhitespace)
      let text = words.joined(separator: " ")
      // the day once, in the heading
      #expect(text.contains("(editing Wednesday 18 November)"), "\(asked)")
      #expect(words.filter { $0.hasPrefix("November") }.count == 1, "\(asked)")
      #expect(text.contains("That morning: I will have a cup of herbal tea"), "\(asked)")
      #expect(text.hasSuffix("Did you follow your swap that day? [Y/n]"), "\(asked)")
      // every line within the width, a column left for the cursor; every word whole
      let lines = asked.split(separator: "\n")
      #expect(lines.count > 3, "\(asked)")
      #expect(lines.allSatisfy { TerminalText.columns($0) < columns }, "\(asked)")
      #expect(words.contains("late-night"), "\(asked)")
      #expect(words.contains("snacking."), "\(asked)")
    }
  }

  @Test func theBracketsAreExplainedOnlyWhereThereAreSome() throws {
    let nudge = InProcess()
    let first = try nudge.typing("y\nn\ny\ny\n\n", "prep", now: "2026-11-19T21:00:00+01:00")
    #expect(first.status == 0, "\(first.stderr)")
    #expect(!first.stdout.contains("Enter keeps the answer in brackets"), "\(first.stdout)")
    let again = try nudge.typing("\n\n\n\n\n", "prep", now: "2026-11-19T21:05:00+01:00")
    #expect(again.stdout.contains("Enter keeps the answer in brackets"), "\(again.stdout)")
  }

  @Test func everyAnswerIsKeptAsADraftAndTheNextRunOffersIt() throws {
    let morning = "2026-11-20T07:30:00+01:00"
    let nudge = InProcess()
    // Ctrl-C at the swap: My Why and the challenge are kept, the exit is 130, one line
    let stopped = try nudge.typing("energy for my kids\n3\n^C\n", "review", now: morning)
    #expect(stopped.status == 130)
    #expect(
      stopped.stderr
        == "nudge: Stopped; your 2 answers are kept as a draft: 'nudge review' picks up where you left off.\n"
    )
    #expect(try history(nudge, morning)[0]["review"] is NSNull)
    // the next run offers them; Enter resumes, only the rest is asked
    let resumed = try nudge.typing(
      "\nsparkling water\ndrink sparkling water\nsoda\n", "review", now: morning)
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(resumed.stdout.contains("You started this earlier (2 answers kept)."))
    #expect(resumed.stdout.contains("Resume where you left off?"))
    let review = try #require(try history(nudge, morning)[0]["review"] as? [String: Any])
    #expect(review["why"] as? String == "energy for my kids")
    #expect(review["challenge"] as? String == "sugary-drinks")
    #expect(review["swap"] as? String == "sparkling water")
    // finishing removed the draft: another run offers nothing
    let again = try nudge.typing("\n\n\n\n\n\n", "review", now: morning)
    #expect(!again.stdout.contains("You started this earlier"))
  }

  @Test func theTodayViewRemembersADraftOfTheLastWeekWithTheCommandThatResumesIt() throws {
    let nudge = InProcess()
    let stopped = try nudge.typing(
      "energy\n3\n^C\n", "review", now: "2026-11-19T07:30:00+01:00")
    #expect(stopped.status == 130)
    try nudge.typing("y\n", "prep", now: "2026-11-20T21:30:00+01:00")
    let evening = try nudge("today", now: "2026-11-20T22:00:00+01:00")
    #expect(
      evening.stdout.contains(
        "✎ Morning Focus of yesterday left unfinished (2 answers kept):\n  nudge review --day yesterday\n"
      ), "\(evening.stdout)")
    #expect(
      evening.stdout.contains(
        "✎ Prep Tonight of today left unfinished (1 answer kept): nudge prep\n"),
      "\(evening.stdout)")
    // the command it names resumes it; once saved, the view says nothing more of it
    let resumed = try nudge.typing(
      "\nsparkling water\ndrink sparkling water\nsoda\n", "review", "--day", "yesterday",
      now: "2026-11-20T22:01:00+01:00")
    #expect(resumed.stdout.contains("You started this earlier (2 answers kept)."))
    #expect(resumed.status == 0, "\(resumed.stderr)")
    let after = try nudge("today", now: "2026-11-20T22:02:00+01:00")
    #expect(!after.stdout.contains("Morning Focus of"), "\(after.stdout)")
    // a week later it is past the backfill window, and no longer offered
    let later = try nudge("today", now: "2026-11-28T22:00:00+01:00")
    #expect(!later.stdout.contains("left unfinished"), "\(later.stdout)")
  }

  @Test func theCommitmentsDefaultsFollowTodaysAnswersAndAResumeSaysTitles() throws {
    let nudge = InProcess()
    try nudge(
      "review", "--why", "energy", "--challenge", "sugary-drinks", "--swap", "sparkling water",
      "--commit-to", "drink sparkling water", "--commit-from", "soda", "--no-input",
      now: "2026-11-19T07:30:00+01:00")
    let morning = "2026-11-20T07:30:00+01:00"
    // a new challenge and swap: Ctrl-C at the commitment keeps three answers
    let stopped = try nudge.typing("\n2\nherbal tea\n^C\n", "review", now: morning)
    #expect(stopped.status == 130, "\(stopped.stderr)")
    // the resume says the challenge by its title, and the commitment offers today's swap
    let resumed = try nudge.typing("\n\n\n", "review", now: morning)
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(
      resumed.stdout.contains("2/4 Today's challenge: Late-night snacking"), "\(resumed.stdout)")
    #expect(!resumed.stdout.contains("late-night-snacking"), "\(resumed.stdout)")
    #expect(resumed.stdout.contains("Today I will [choose herbal tea]"), "\(resumed.stdout)")
    #expect(resumed.stdout.contains("instead of [late-night snacking]"), "\(resumed.stdout)")
    #expect(!resumed.stdout.contains("[drink sparkling water]"), "\(resumed.stdout)")
    let focus = try #require(try history(nudge, morning)[0]["review"] as? [String: Any])
    #expect(focus["commit_to"] as? String == "choose herbal tea")
    #expect(focus["commit_from"] as? String == "late-night snacking")
    // kept the same swap and challenge: the earlier commitment is still offered
    let same = try nudge.typing("\n\n\n\n\n", "review", now: "2026-11-21T07:30:00+01:00")
    #expect(same.stdout.contains("Today I will [choose herbal tea]"), "\(same.stdout)")
    #expect(same.stdout.contains("instead of [late-night snacking]"), "\(same.stdout)")
  }

  @Test func ctrlDLeavesWithExit1AndKeepsTheDraftAndNoStartsAfresh() throws {
    let nudge = InProcess()
    let evening = "2026-11-20T21:30:00+01:00"
    let left = try nudge.typing("y\nn\n", "prep", now: evening)
    #expect(left.status == 1)
    #expect(left.stderr.contains("Left the flow; your 2 answers are kept as a draft"))
    // "n" at the offer: start afresh, the draft is forgotten
    let fresh = try nudge.typing("n\nn\ny\ny\nn\n\n", "prep", now: evening)
    #expect(fresh.status == 0, "\(fresh.stderr)")
    let prep = try #require(try history(nudge, evening)[0]["prep"] as? [String: Any])
    #expect(prep["sticky_notes"] as? Bool == false)
    #expect(prep["water"] as? Bool == true)
  }

  @Test func aSaveFromFlagsLeavesAnInteractiveDraftAlone() throws {
    let nudge = InProcess()
    let evening = "2026-11-20T21:30:00+01:00"
    let left = try nudge.typing("y\nn\n", "prep", now: evening)
    #expect(left.status == 1)
    try #require(
      try nudge.run(["prep", "--item", "water=yes", "--no-input"], now: evening).status == 0)
    let again = try nudge.typing("\ny\nn\n\n", "prep", now: evening)
    #expect(again.stdout.contains("You started this earlier (2 answers kept)."), "\(again.stdout)")
    #expect(again.status == 0, "\(again.stderr)")
    let prep = try #require(try history(nudge, evening)[0]["prep"] as? [String: Any])
    #expect(prep["sticky_notes"] as? Bool == true)
    #expect(prep["produce"] as? Bool == false)
  }
}
