import Foundation
import Testing

@testable import NudgeCore

/// Plan files: the built-in plans read as written under plans/, and every broken file is
/// refused with the line and what is allowed.
@Suite struct PlanFileTests {
  static func repositoryFile(_ path: String) throws -> String {
    // the repository: the first folder above this file that holds Package.swift
    var root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path)
    {
      root = root.deletingLastPathComponent()
    }
    return try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  @Test func theBuiltInPlansAreThePlansFolderByteForByte() throws {
    #expect(BuiltInPlans.texts.map(\.name) == ["coach", "sleep"])
    for (name, text) in BuiltInPlans.texts {
      #expect(try Self.repositoryFile("plans/\(name).plan") == text, "plans/\(name).plan")
    }
  }

  @Test func whatIsKnownOfTheBuiltInPlansWithoutReadingThemIsWhatTheirFilesSay() throws {
    // `offByDefault` is what lets a command leave those plans unread (`Context.plansOn`); an
    // off plan left unread must drop no reminder time of its own, so none has one
    for (name, text) in BuiltInPlans.texts {
      let plan = try PlanFile.read(text)
      #expect(plan.name == name)
      #expect(BuiltInPlans.offByDefault.contains(name) == !plan.onByDefault, "\(name)")
      #expect(plan.slots.isEmpty, "\(name): a built-in plan with reminder times of its own")
    }
  }

  /// A catalogue that leaves a built-in plan unread has the others as they are.
  @Test func aBuiltInPlanLeftUnreadIsNotInTheCatalogue() throws {
    let all = PlanCatalogue.load(files: [], commandWords: [])
    let some = PlanCatalogue.load(
      files: [], commandWords: [], readingBuiltIn: { $0 == "sleep" })
    #expect(all.entries.map(\.plan.name) == ["coach", "sleep"])
    #expect(some.entries.map(\.plan.name) == ["sleep"] && some.problems.isEmpty)
    #expect(some.entries[0].plan == all.entries[1].plan)
  }

  @Test func theCoachIsTodaysFourFlowsAndSleepItsTwo() throws {
    let coach = try PlanFile.read(BuiltInPlans.texts[0].text)
    #expect(coach.name == "coach" && coach.onByDefault)
    #expect(coach.flows.map(\.word) == ["prep", "review", "checkin", "need-help"])
    #expect(coach.flows.map(\.slot) == ["evening", "morning", "evening", "midday"])
    let review = try #require(coach.flows.first { $0.id == "review" })
    #expect(review.counts == .anyOf(["commit_to"]))
    #expect(
      review.questions.first { $0.id == "challenge_other" }?.when
        == Question.Condition(question: "challenge", answer: "other"))
    let sleep = try PlanFile.read(BuiltInPlans.texts[1].text)
    #expect(sleep.name == "sleep" && !sleep.onByDefault)
    #expect(sleep.flows.map(\.word) == ["sleep", "challenge"])
    #expect(
      sleep.flows[0].questions.map(\.id) == [
        "bedtime", "wake", "rested", "note", "challenge", "accept",
      ])
    #expect(sleep.flows[0].questions[2].kind == .number(unit: nil, min: 1, max: 5))
    #expect(sleep.flows[0].reminder == "Your sleep challenge is ready")
  }

  /// A small valid plan, for the broken ones below to change one line of.
  static let valid = """
    format = 1
    [plan]
    name = "reading"
    title = "Reading"
    [[slot]]
    id = "night"
    at = "22:00"
    title = "Read a little?"
    [[flow]]
    id = "read"
    word = "read"
    title = "Reading"
    slot = "night"
    first = "First pages"
    [[flow.question]]
    id = "pages"
    ask = "How many pages?"
    kind = "number"
    unit = "pages"
    required = true
    [[flow.question]]
    id = "mood"
    ask = "How was it?"
    kind = "one-of"
    options = ["good", "meh"]

    """

  /// `valid` with a third question worded for a past day and after the mood's answer.
  static let reworded =
    valid + """
      [[flow.question]]
      id = "why"
      ask = "Why?"
      kind = "text"
      past = "Why, that day?"
      when_answered = ["mood=meh", "mood=good"]
      then_ask = ["What got in the way?", "What helped?"]

      """

  @Test func aQuestionIsAskedInItsPastDaysWordsOrInTheWordsAnEarlierAnswerChose() throws {
    let why = try #require(try PlanFile.read(Self.reworded).flows[0].questions.last)
    #expect(why.words(after: [:], pastDay: false) == "Why?")
    #expect(why.words(after: [:], pastDay: true) == "Why, that day?")
    #expect(why.words(after: ["mood": "meh"], pastDay: false) == "What got in the way?")
    // an answer's words win over the past day's
    #expect(why.words(after: ["mood": "good"], pastDay: true) == "What helped?")
    #expect(why.words(after: ["pages": "meh"], pastDay: false) == "Why?")
  }

  @Test(arguments: [
    (
      "then_ask = [\"What got in the way?\", \"What helped?\"]", "then_ask = [\"Only one\"]",
      "words for each of when_answered's answers"
    ),
    (
      "when_answered = [\"mood=meh\", \"mood=good\"]",
      "when_answered = [\"mood=sad\", \"mood=good\"]", "'sad' is not an answer"
    ),
    (
      "when_answered = [\"mood=meh\", \"mood=good\"]",
      "when_answered = [\"pages=3\", \"mood=good\"]", "yes-no or one-of"
    ),
    (
      "when_answered = [\"mood=meh\", \"mood=good\"]",
      "when_answered = [\"later=x\", \"mood=good\"]", "an earlier question"
    ),
    ("past = \"Why, that day?\"", "past = \"\"", "1 to 200 characters"),
  ])
  func aRewordingThatCannotHoldIsRefused(original: String, replacement: String, words: String) {
    let text = Self.reworded.replacing(original, with: replacement, maxReplacements: 1)
    #expect(text != Self.reworded)
    #expect {
      try PlanFile.read(text)
    } throws: {
      ($0 as? PlanFileError)?.message.contains(words) == true
    }
  }

  @Test func theCoachsQuestionsAreAskedInCoachPlansWords() {
    #expect(CoachPlan.ask(.review, "commit_to") == "Today I will")
    #expect(CoachPlan.ask(.review, "commit_to", pastDay: true) == "That day I will")
    #expect(CoachPlan.ask(.checkin, "blocker") == "Anything that got in the way?")
    #expect(
      CoachPlan.ask(.checkin, "blocker", after: ["followed": "yes"])
        == "Anything that made it hard?")
    #expect(CoachPlan.ask(.checkin, "blocker", after: ["followed": "no"]) == "What got in the way?")
    #expect(PrepItem.water.label == "Water ready")
  }

  @Test func aFileWrittenOnWindowsReadsTheSame() throws {
    let crlf = Self.valid.replacing("\n", with: "\r\n")
    #expect(try PlanFile.read(crlf) == PlanFile.read(Self.valid))
    let broken = crlf.replacing("kind = \"number\"", with: "kind = \"slider\"")
    #expect { try PlanFile.read(broken) } throws: { ($0 as? PlanFileError)?.line == 18 }
    // a carriage return that ends no line is a control character, wherever it is
    for stray in [Self.valid + "\r", Self.valid.replacing("ask = ", with: "ask =\r ")] {
      #expect { try PlanFile.read(stray) } throws: {
        ($0 as? PlanFileError)?.message.contains("U+000D") == true
      }
    }
  }

  /// The syntax is read as UTF-8 bytes: texts in any script, escapes, Unicode spaces around
  /// keys and values, and the errors that quote a character, read as they did by characters.
  @Test func textsInAnyScriptAndUnicodeSpacesReadAsWritten() throws {
    let tables = try PlanText.tables(
      """
      # été
      \u{A0}title\u{2003}= "Lire un peu 📚, \\u00e9t\\u00E9 \\"ok\\"\\t"\u{A0}# note
      words = [ "naïve", "日本語" ,"" ]
      count = 12\u{3000}
      [[flow]]
      """)
    #expect(tables.count == 2 && tables[1].name == "[[flow]]" && tables[1].line == 5)
    #expect(
      tables[0].entries.map(\.value) == [
        .text("Lire un peu 📚, été \"ok\"\t"), .list(["naïve", "日本語", ""]), .number(12),
      ])
    #expect(tables[0].entries.map(\.key) == ["title", "words", "count"])
    // words (numbers, flags) end at a space, a tab or a comment, or run on into a mark
    let words = try PlanText.tables("a = true# on\nb = 3\t# three\nc = false \nd = 42")
    #expect(words[0].entries.map(\.value) == [.flag(true), .number(3), .flag(false), .number(42)])
    // (a space a mark joins is still a space: as it was read by characters)
    #expect(try PlanText.tables("key = 1 \u{301}")[0].entries.map(\.value) == [.number(1)])
    for (line, words) in [
      ("key = \"a\\é\"", "'\\é' is not an escape"),
      ("key = \"a\\u00\"", "\\u takes four hex digits"),
      ("key = \"a\\u200E\"", "U+200E"),
      ("key = 12é", "'12é' is not a value"),
      ("key = 1\u{301}", "is not a value"), ("key = 1#\u{301}", "is not a value"),
      ("key = \"a\" b", "unexpected 'b' after the value of 'key'"),
      ("kéy = 1", "'kéy' is not a key"),
      ("key = [\"a\" \"b\"]", "a list ends with ']'"),
      ("key = \"a\\", "is not closed"),
      ("[fl ow]", "'fl ow' is not a table name"),
      ("title = \"\u{2067}x\"", "U+2067"),
    ] {
      do {
        _ = try PlanText.tables(line)
        Issue.record("read: \(line)")
      } catch {
        #expect(error.line == 1 && error.message.contains(words), "\(line): \(error.message)")
      }
    }
  }

  @Test func headersReadTheSameWithSpacesCommentsOrNone() throws {
    for (line, name) in [
      ("[plan]", "plan"), ("[[flow]]", "[[flow]]"), ("[[flow.question]]", "[[flow.question]]"),
      ("[ plan ]  # the plan", "plan"), ("[[ flow ]]", "[[flow]]"), ("[Plan-A]", "Plan-A"),
    ] {
      #expect(try PlanText.tables(line).last?.name == name, "\(line)")
    }
    for line in ["[]", "[[]]", "[[flow]", "[flow]]", "[fl ow]", "[flow!]", "[é]"] {
      #expect(throws: PlanFileError.self, "\(line)") { try PlanText.tables(line) }
    }
  }

  @Test func aSmallPlanReads() throws {
    let plan = try PlanFile.read(Self.valid)
    #expect(plan.slots == [PlanSlot(id: "night", at: "22:00", title: "Read a little?")])
    #expect(plan.flows[0].questions[0].kind == .number(unit: "pages", min: 0, max: 1_000_000))
    #expect(plan.flows[0].counts == .requiredAnswered)
  }

  @Test(arguments: [
    // (line to replace, its replacement, the line the error names, words it says)
    ("format = 1", "format = 2", 1, "reads format 1"),
    ("format = 1", "", 1, "needs 'format = ...'"),
    ("title = \"Reading\"", "title = \"Reading", 4, "not closed"),
    ("title = \"Reading\"", "title = Reading", 4, "is not a value"),
    ("title = \"Reading\"", "title = \"Reading\"\ntitle = \"Again\"", 5, "set twice"),
    ("name = \"reading\"", "name = \"Reading Plan\"", 3, "is not an id"),
    ("kind = \"number\"", "kind = \"slider\"", 18, "is not one of yes-no, one-of"),
    ("unit = \"pages\"", "unit = \"pages\"\nexec = \"rm -rf ~\"", 20, "'exec' is not a key"),
    ("word = \"read\"", "word = \"history\"", 11, "is taken (a nudge command"),
    ("slot = \"night\"", "slot = \"noon\"", 9, "names slot 'noon'"),
    ("options = [\"good\", \"meh\"]", "options = [\"good\", \"good\"]", 25, "listed twice"),
    (
      "options = [\"good\", \"meh\"]", "options = [\"good\", \"meh\"]\nwhen = \"mood=good\"", 26,
      "naming an earlier question"
    ),
    ("at = \"22:00\"", "at = \"25:00\"", 7, "not a time"),
    (
      "[[flow.question]]\nid = \"pages\"", "[[flow.questions]]\nid = \"pages\"", 15,
      "is not a table of a plan"
    ),
    ("required = true", "required = \"yes\"", 20, "is true or false, not text"),
    ("title = \"Reading\"", "title = \"Read\\u001b[2J\"", 4, "control character (U+001B)"),
    ("title = \"Reading\"", "title = \"Read\u{7F}\"", 4, "control character (U+007F)"),
    ("title = \"Reading\"", "title = \"Read\u{202E}gnid\"", 4, "control character (U+202E)"),
    ("first = \"First pages\"", "first = \"First pages\"\ncounts = []", 15, "at least one"),
    (
      "first = \"First pages\"", "first = \"First pages\"\ncounts = [\"nope\"]", 15,
      "counts on 'nope'"
    ),
  ])
  func aBrokenPlanIsRefusedWithItsLine(
    original: String, replacement: String, line: Int, words: String
  ) {
    let text = Self.valid.replacing(original, with: replacement, maxReplacements: 1)
    #expect(text != Self.valid)
    do {
      _ = try PlanFile.read(
        text, reservedWords: ["history", "prep"],
        timeProblem: { $0 == "25:00" ? "'\($0)' is not a time" : nil })
      Issue.record("read: \(replacement)")
    } catch {
      #expect(error.line == line, "\(error.described(file: "x.plan"))")
      #expect(error.message.contains(words), "\(error.described(file: "x.plan"))")
    }
  }

  @Test func hostileSizesAreRefusedBeforeTheyCostAnything() {
    let huge = Self.valid + "# " + String(repeating: "x", count: PlanFile.maxBytes) + "\n"
    #expect(throws: PlanFileError.self) { try PlanFile.read(huge) }
    let flows = (1...13).map { i in
      "[[flow]]\nid = \"f\(i)\"\ntitle = \"F\"\nfirst = \"F\"\n[[flow.question]]\nid = \"q\"\nask = \"Q?\"\nkind = \"yes-no\"\n"
    }
    let many = "format = 1\n[plan]\nname = \"many\"\ntitle = \"Many\"\n" + flows.joined()
    #expect {
      try PlanFile.read(many)
    } throws: { ($0 as? PlanFileError)?.message.contains("at most 12 flows") == true }
    let control = Self.valid.replacing("title = \"Reading\"", with: "title = \"Read\u{1B}[2J\"")
    #expect {
      try PlanFile.read(control)
    } throws: { ($0 as? PlanFileError)?.message.contains("control character (U+001B)") == true }
  }
}

/// The catalogue: built-in plans first, a person's files after, the broken ones set aside.
@Suite struct PlanCatalogueTests {
  @Test func aBrokenOrCollidingFileIsSetAsideAndTheOthersKept() {
    let valid = PlanFileTests.valid
    let catalogue = PlanCatalogue.load(
      files: [
        ("/p/a.plan", valid),
        // the same plan again; unreadable; another name but the same word
        ("/p/b.plan", valid),
        ("/p/c.plan", nil),
        ("/p/d.plan", valid.replacing("name = \"reading\"", with: "name = \"other\"")),
        ("/p/e.plan", "format = 1\n[plan\n"),
      ], commandWords: ["prep", "history"])
    #expect(catalogue.entries.map(\.plan.name) == ["coach", "sleep", "reading"])
    #expect(catalogue.problems.map(\.file) == ["/p/b.plan", "/p/c.plan", "/p/d.plan", "/p/e.plan"])
    #expect(catalogue.problems[0].described.hasPrefix("/p/b.plan:11: 'read' is taken"))
    #expect(catalogue.problems[2].described.contains("'read' is taken"))
    #expect(catalogue.problems[3].described.hasPrefix("/p/e.plan:2: a table header"))
  }

  @Test func atMostThirtyTwoFilesAreRead() {
    let files = (0..<40).map { i in (path: "/p/\(i).plan", text: String?.none) }
    let catalogue = PlanCatalogue.load(files: files, commandWords: [])
    #expect(catalogue.problems.count == 33)
    #expect(catalogue.problems[0].described.contains("at most 32 plan files are read"))
  }
}
