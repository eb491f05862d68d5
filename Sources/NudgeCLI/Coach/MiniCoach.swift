import NudgeCore

/// The mini-coach for each kind of craving; returns what it did and the note typed. Each
/// answer is kept in the flow's draft as it is given.
struct MiniCoach {
  let ctx: Context
  let kept: DraftAnswers
  let breathingSeconds: Int
  /// A craving noted afterwards for a past day: no coach, only the note.
  var pastDay = false

  var ask: Prompter { kept.prompter }

  func run(_ category: HelpCategory, note: String?) throws -> (
    coach: String?, note: String?
  ) {
    var note = note
    ctx.line()
    // a craving noted for a past day gets no coach now, only its note
    let coach =
      pastDay
      ? nil : try kept.text("coach", "Coach:") { try coached(category, note: &note) }
    if note == nil && (category != .other || pastDay) {
      let question = CoachPlan.ask(.needHelp, "note", pastDay: pastDay)
      note = try kept.text("note", question) { try ask.text(question) }
    }
    return (coach, note)
  }

  /// What the coach for `category` did (nil: nothing to record); a note typed on the way
  /// goes into `note`.
  private func coached(_ category: HelpCategory, note: inout String?) throws -> String? {
    switch category {
    case .stress:
      let tools = ["breathe", "journal"]
      let tool = try kept.text("tool", "Two minutes for you:") {
        try ask.choose(
          "Two minutes for you:", options: tools, key: { $0 },
          label: { $0 == "breathe" ? "A 2-minute guided breathing timer" : "A quick journal line" })
      }
      if tool != "journal" {
        let done = breathe()
        if ctx.input.wasInterrupted {
          // what was breathed is kept too, then the flow stops
          try kept.keep("coach", done)
          throw kept.stop(interrupted: true)
        }
        return done
      }
      if note == nil {
        note = try kept.text("note", "What's going on, in one line?") {
          try ask.text("What's going on, in one line?")
        }
      }
      return "journal line"
    case .habit:
      let swaps = ["gum", "water", "walk"]
      let swap =
        try kept.text("swap", "Try a swap for the next few minutes:") {
          try ask.choose(
            "Try a swap for the next few minutes:", options: swaps, key: { $0 },
            label: {
              switch $0 {
              case "gum": "Chew a piece of gum"
              case "water": "Drink a glass of water"
              default: "Take a short walk"
              }
            })
        } ?? "walk"
      let triggers = ["time", "place", "both", "not-sure"]
      let trigger =
        try kept.text("trigger", "Is it a time or place trigger?") {
          try ask.choose(
            "Is it a time or place trigger?", options: triggers, key: { $0 },
            label: {
              switch $0 {
              case "time": "Time: it's that time of day"
              case "place": "Place: it's where I am"
              case "both": "Both"
              default: "Not sure"
              }
            })
        } ?? "not-sure"
      return "swap: \(swap) · trigger: \(trigger)"
    case .physical:
      var done: [String] = []
      for (key, label) in [
        ("water", "Drink a glass of water"), ("protein", "Have a protein snack"),
        ("stretch", "Stretch for a minute"),
      ] where try kept.yesNo(key, "  \(label)?", ask: { try ask.yesNo("  \(label)?") }) {
        done.append(key)
      }
      let meal = try kept.text("meal", "When was your last balanced meal?") {
        try ask.text("When was your last balanced meal?")
      }
      return (done.isEmpty ? "none of the checklist" : done.joined(separator: ", "))
        + (meal.map { " · last balanced meal: \($0)" } ?? "")
    case .other:
      if note == nil {
        note = try kept.text("note", "What's happening?") {
          try ask.text("What's happening? A few words help you spot patterns.")
        }
      }
      return nil
    }
  }

  /// Guided breathing with a visible countdown; Enter skips. Returns what was done.
  func breathe() -> String {
    let style = ctx.style
    ctx.line(style.dim("Breathe with the words. Press Enter to skip at any time."))
    let pattern: [(String, Int)] = [("Breathe in ", 4), ("Hold       ", 4), ("Breathe out", 6)]
    var elapsed = 0
    var skipped = false
    timer: while elapsed < breathingSeconds {
      for (phase, length) in pattern {
        for tick in 0..<length {
          guard elapsed < breathingSeconds else { break timer }
          let left = breathingSeconds - elapsed
          let bar =
            String(repeating: "●", count: tick + 1)
            + String(repeating: "·", count: length - tick - 1)
          ctx.output.write(
            "\r  \(style.cyan(phase))  \(bar)  \(left / 60):\(zeroPadded(left % 60, 2)) left  "
          )
          if ctx.input.waitForLine(seconds: 1) {
            _ = ctx.input.readLine()
            skipped = true
            break timer
          }
          if ctx.input.wasInterrupted {  // Ctrl-C: stop here, keep what was done
            skipped = true
            break timer
          }
          elapsed += 1
        }
      }
    }
    ctx.output.write("\r" + String(repeating: " ", count: 50) + "\r")
    let spent = "\(elapsed / 60):\(zeroPadded(elapsed % 60, 2))"
    if skipped {
      ctx.line("Stopped after \(spent). Every breath counts.")
      return "breathing \(spent) (stopped early)"
    }
    ctx.line(style.green("✓") + " \(spent) of breathing done. Notice how you feel now.")
    return "breathing \(spent)"
  }
}
