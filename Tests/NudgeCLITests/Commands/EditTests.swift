import Foundation
import NudgeCore
import Testing

@testable import NudgeCLI

/// `nudge edit`, `delete` and `undo`: which day they take, the stored answers opened, streaks and achievements recomputed.
@Suite struct EditTests {
  @Test func editTakesTheDayBeforeOrAfterTheFlow() throws {
    let nudge = InProcess()
    try #require(
      try nudge.run(["review", "--commit-to", "walk", "--day", "yesterday", "--no-input"]).status
        == 0)
    let after = try nudge.run(["edit", "review", "yesterday", "--commit-to", "swim", "--no-input"])
    #expect(after.status == 0, "\(after.stderr)")
    #expect(after.stdout.contains("Morning Focus edited for Thursday 19 November."))
    #expect(after.stdout.contains("That day I will swim"))
    let before = try nudge.run(["edit", "yesterday", "review", "--commit-to", "run", "--no-input"])
    #expect(before.status == 0, "\(before.stderr)")
    #expect(before.stdout.contains("That day I will run"))
    // a weekday names the latest one: Thursday is yesterday
    let weekday = try nudge.run(["show", "thursday", "--json"])
    #expect(weekday.stdout.contains("\"commit_to\" : \"run\""))
    let deleted = try nudge.run(["delete", "review", "thu", "--yes"])
    #expect(deleted.status == 0, "\(deleted.stderr)")
    let misspelt = try nudge.run(["edit", "yesterday", "reveiw"])
    #expect(misspelt.status == 64)
    #expect(misspelt.stderr.contains("Did you mean 'review'?"))
  }

  @Test func deleteAndUndoRecomputeStreaksAndAchievements() throws {
    let nudge = InProcess()
    for day in 14...20 {
      let now = "2026-11-\(day)T21:30:00+01:00"
      try #require(
        try nudge.run(["prep", "--item", "water=yes", "--no-input"], now: now).status == 0)
    }
    let now = "2026-11-20T22:00:00+01:00"
    var streak = try #require(try nudge.json("streak", now: now) as? [String: Any])
    #expect(streak["current"] as? Int == 7)
    // off a terminal, delete asks for --yes
    let unasked = try nudge.run(["delete", "2026-11-17", "prep"], now: now)
    #expect(unasked.status == 64)
    #expect(unasked.stderr.contains("--yes"))
    let deleted = try nudge.run(["delete", "2026-11-17", "prep", "--yes"], now: now)
    #expect(deleted.status == 0, "\(deleted.stderr)")
    #expect(deleted.stdout.contains("Achievement removed: 7-day streak"))
    streak = try #require(try nudge.json("streak", now: now) as? [String: Any])
    #expect(streak["current"] as? Int == 3)
    let earned = try #require(try nudge.json("achievements", now: now) as? [[String: Any]])
    #expect(earned.first { $0["key"] as? String == "streak-7" }?["earned_on"] is NSNull)
    // undo brings it back, and the achievement with it; a second undo takes back the last save
    let undone = try nudge.run(["undo"], now: now)
    #expect(undone.status == 0, "\(undone.stderr)")
    #expect(undone.stdout.contains("is back"))
    streak = try #require(try nudge.json("streak", now: now) as? [String: Any])
    #expect(streak["current"] as? Int == 7)
    let undoSave = try nudge.run(["undo", "--json"], now: now)
    #expect(undoSave.status == 0)
    #expect(undoSave.stdout.contains("\"kind\" : \"saved\""))
    #expect(try history(nudge, now)[0]["prep"] is NSNull)
    // yesterday's changes are not today's to undo
    let nothing = try nudge.run(["undo"], now: now)
    #expect(nothing.status == 1)
    #expect(nothing.stderr.contains("nothing to undo"))
  }

  @Test func redoReappliesWhatUndoTookBackUntilTheNextChange() throws {
    let nudge = InProcess()
    let now = "2026-11-20T09:00:00+01:00"
    let review = ["--why", "energy", "--commit-to", "walk", "--no-input"]
    try #require(try nudge.run(["review"] + review, now: now).status == 0)
    try #require(
      try nudge.run(["edit", "today", "review", "--commit-to", "swim", "--no-input"], now: now)
        .status == 0)
    let nothingYet = try nudge.run(["redo"], now: now)
    #expect(nothingYet.status == 1)
    #expect(nothingYet.stderr.hasPrefix("nudge: nothing to redo:"), "\(nothingYet.stderr)")
    // two undos: the edit, then the save (the typed review is gone); a run between them that
    // changes nothing (the same answers, a new time) is no change to undo or redo over
    let undoEdit = try nudge.run(["undo"], now: now)
    try #require(
      try nudge.run(
        ["review", "--commit-to", "walk", "--no-input"], now: "2026-11-20T09:30:00+01:00"
      ).status == 0)
    #expect(undoEdit.stdout.contains("'nudge redo' re-applies it"), "\(undoEdit.stdout)")
    try nudge.run(["undo"], now: now)
    #expect(try history(nudge, now)[0]["review"] is NSNull)
    // redo brings them back in the order they were made, with the same words and JSON as undo
    let redoSave = try nudge.run(["redo", "--json"], now: now)
    #expect(redoSave.status == 0, "\(redoSave.stderr)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(redoSave.stdout.utf8)) as? [String: Any])
    #expect(report["kind"] as? String == "saved")
    #expect(report["redone"] as? Bool == true)
    #expect(report["undone"] as? Bool == false)
    #expect((report["entry"] as? [String: Any])?["commit_to"] as? String == "walk")
    #expect(report["removed"] is NSNull)
    #expect((report["new_achievements"] as? [Any])?.isEmpty == false, "\(report)")
    let redoEdit = try nudge.run(["redo"], now: now)
    #expect(redoEdit.stdout.contains("Redone: the Morning Focus of Friday 20 November"))
    #expect(redoEdit.stdout.contains("has its later answers back"), "\(redoEdit.stdout)")
    var focus = try #require(try history(nudge, now)[0]["review"] as? [String: Any])
    #expect(focus["commit_to"] as? String == "swim")
    #expect(focus["why"] as? String == "energy")
    #expect(try nudge.run(["redo"], now: now).status == 1)
    // a redone change can be undone again; then a new change ends what could be redone
    try nudge.run(["undo"], now: now)
    focus = try #require(try history(nudge, now)[0]["review"] as? [String: Any])
    #expect(focus["commit_to"] as? String == "walk")
    try #require(
      try nudge.run(
        ["prep", "--item", "water=yes", "--no-input"], now: "2026-11-20T21:00:00+01:00"
      )
      .status == 0)
    let ended = try nudge.run(["redo"], now: "2026-11-20T21:05:00+01:00")
    #expect(ended.status == 1)
    #expect(ended.stderr.contains("nothing to redo"))
    focus = try #require(try history(nudge, now)[0]["review"] as? [String: Any])
    #expect(focus["commit_to"] as? String == "walk")
    // a redone delete deletes again
    try nudge.run(["delete", "today", "prep", "--yes"], now: "2026-11-20T21:10:00+01:00")
    try nudge.run(["undo"], now: "2026-11-20T21:11:00+01:00")
    let redoDelete = try nudge.run(["redo", "--json"], now: "2026-11-20T21:12:00+01:00")
    let deleted = try #require(
      try JSONSerialization.jsonObject(with: Data(redoDelete.stdout.utf8)) as? [String: Any])
    #expect(deleted["kind"] as? String == "deleted")
    #expect(deleted["entry"] is NSNull)
    #expect((deleted["removed"] as? [String: Any])?["water"] as? Bool == true, "\(deleted)")
    #expect(try history(nudge, now)[0]["prep"] is NSNull)
  }

  @Test func editOpensTheStoredAnswersAndReachesAnyPastDayWithAnEntry() throws {
    let nudge = InProcess()
    let old = "2026-10-01T08:00:00+02:00"
    try #require(
      try nudge.run(
        ["review", "--swap", "tea", "--commit-to", "drink tea", "--no-input"], now: old
      ).status == 0)
    let now = "2026-11-20T09:00:00+01:00"
    // --day does not reach that far back for a flow; edit does, for an entry that exists
    let refused = try nudge.run(
      ["review", "--day", "2026-10-01", "--swap", "x", "--no-input"], now: now)
    #expect(refused.status == 64)
    let edited = try nudge.run(
      ["edit", "2026-10-01", "review", "--swap", "green tea", "--no-input"], now: now)
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect(edited.stdout.contains("Morning Focus edited for Thursday 1 October."))
    let day = try #require(
      try nudge.json("history", "--days", "60", now: now) as? [[String: Any]]
    ).first { $0["date"] as? String == "2026-10-01" }
    let review = try #require(day?["review"] as? [String: Any])
    #expect(review["swap"] as? String == "green tea")
    #expect(review["commit_to"] as? String == "drink tea")
    // interactively, Enter keeps each stored answer
    let kept = try nudge.typing("\n3\n\n\n\n", "edit", "2026-10-01", "review", now: now)
    #expect(kept.status == 0, "\(kept.stderr)")
    // (on a terminal the stored answer is on the line to edit: EditInPlace in e2e-tmux)
    #expect(kept.stdout.contains("My swap: what did you plan to do instead? (edit it;"))
    let after = try #require(
      try nudge.json("history", "--days", "60", now: now) as? [[String: Any]]
    ).first { $0["date"] as? String == "2026-10-01" }
    #expect((after?["review"] as? [String: Any])?["swap"] as? String == "green tea")
    #expect(kept.stdout.contains("(editing Thursday 1 October)"))
    // a day with no entry that far back cannot get one
    let missing = try nudge.run(
      ["edit", "2026-10-02", "prep", "--item", "water=yes", "--no-input"], now: now)
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("cannot get a new entry"))
  }

  @Test func eachFormOfEditPrintsItsOwnHelp() throws {
    let nudge = InProcess()
    let own = try nudge.run(["edit", "--help"])
    #expect(own.status == 0, "\(own.stderr)")
    #expect(own.stdout.contains("USAGE: nudge edit [<words> ...]"))
    #expect(own.stdout.contains("nudge edit help ID"))
    #expect(try nudge.run(["edit", "-h"]).stdout == own.stdout)
    // a flow named: editing that flow, its flags without --day (the day is a word here)
    let review = try nudge.run(["edit", "today", "review", "--help"])
    #expect(review.status == 0, "\(review.stderr)")
    #expect(review.stdout.hasPrefix("OVERVIEW: Change a day's saved Morning Focus"))
    #expect(review.stdout.contains("USAGE: nudge edit [<day>] review [--why <text>]"))
    #expect(review.stdout.contains("--commit-to <text>"))
    #expect(!review.stdout.contains("--day"))
    #expect(!review.stdout.contains("SUBCOMMANDS"), "not the root's help")
    #expect(
      review.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 || $0.hasPrefix("USAGE") })
    #expect(
      try nudge.run(["edit", "checkin", "yesterday", "-h"]).stdout.contains(
        "USAGE: nudge edit [<day>] checkin [--followed <yes|no>]"))
    for words in [["edit", "help", "--help"], ["edit", "help", "48f5", "--help"]] {
      let note = try nudge.run(words)
      #expect(note.status == 0, "\(note.stderr)")
      #expect(note.stdout.contains("USAGE: nudge edit help <id> [--category"))
      #expect(note.stdout.contains("--no-input"))
    }
    // after --, --help is a word like any other
    #expect(try nudge.run(["edit", "review", "--", "--help"]).status != 0)
  }

  @Test func aCravingNoteIsEditedWithNoInputAsTheOtherFormsAre() throws {
    let nudge = InProcess()
    let saved = try nudge.run(
      ["need-help", "--category", "stress", "--note", "meeting", "--no-input", "--json"])
    try #require(saved.status == 0, "\(saved.stderr)")
    let note = try JSONSerialization.jsonObject(with: Data(saved.stdout.utf8)) as? [String: Any]
    let id = try #require(note?["id"] as? String)
    let edited = try nudge.run([
      "edit", "help", String(id.prefix(8)), "--note", "lunch", "--no-input",
    ])
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect(edited.stdout.contains("edited: stress: lunch."))
    // nothing to change, even on a terminal: said in one line, nothing asked or saved
    let nothing = try nudge.run(
      ["edit", "help", String(id.prefix(8)), "--no-input"], terminal: true)
    #expect(nothing.status == 64)
    #expect(nothing.stderr.contains("nothing to change: with --no-input, say what changes"))
    #expect(nothing.stdout.isEmpty)
  }
}
