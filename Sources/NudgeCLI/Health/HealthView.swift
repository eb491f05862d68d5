import NudgeCore

/// `nudge health` as a person reads it: last night, the signals against their baselines, the
/// day's activity, and the three lines of the brief.
struct HealthView {
  let ctx: Context

  func show(_ report: HealthReport) {
    if let night = report.night?.night {
      ctx.line(
        ctx.style.bold(
          "Last night (morning of \(report.day.short)), from \(VisibleText.escaped(night.source)):")
      )
      let percent = Int((night.efficiency * 100).rounded())
      ctx.line(
        "  Asleep \(HealthBrief.duration(night.asleepMinutes)) of \(HealthBrief.duration(night.inBedMinutes)) in bed (\(percent)%), \(HealthJSON.clock(night.sleepStart, offset: night.sleepStartOffset)) to \(HealthJSON.clock(night.wake, offset: night.wakeOffset))"
      )
      let stages: [(HealthSample.SleepStage, String)] = [
        (.core, "Core"), (.deep, "Deep"), (.rem, "REM"), (.asleepUnspecified, "Asleep"),
        (.awake, "Awake"),
      ]
      let parts = stages.compactMap { stage, name in
        night.stageMinutes[stage].map { "\(name) \(HealthBrief.duration($0))" }
      }
      if !parts.isEmpty { ctx.line("  " + parts.joined(separator: " · ")) }
    } else {
      ctx.line(ctx.style.bold("No night recorded for the morning of \(report.day.short)."))
    }
    ctx.line("Recovery (against your last 30 nights):")
    for signal in report.signals where signal.name != "sleep_duration" {
      let name = signal.label.prefix(1).uppercased() + signal.label.dropFirst()
      let padded = name + String(repeating: " ", count: max(1, 20 - name.count))
      guard let value = signal.value else {
        ctx.line("  " + padded + ctx.style.dim("not measured"))
        continue
      }
      var line = "  " + padded + HealthJSON.format((value * 10).rounded() / 10) + " " + signal.unit
      if let mean = signal.baseline30dMean {
        line += "   mean " + HealthJSON.format((mean * 10).rounded() / 10)
        if let z = signal.zScore30d {
          line += ", z " + HealthJSON.format((z * 100).rounded() / 100)
        }
      }
      ctx.line(line)
    }
    if let activity = report.activity {
      var parts: [String] = []
      if let steps = activity.steps { parts.append("\(Int(steps.rounded())) steps") }
      if let kcal = activity.activeEnergyKcal { parts.append("\(Int(kcal.rounded())) kcal active") }
      if !parts.isEmpty {
        ctx.line("The day before (\(activity.day.short)): " + parts.joined(separator: ", ") + ".")
      }
    }
    for workout in report.workouts {
      let type = VisibleText.escaped(
        String(
          workout.type.hasPrefix("HKWorkoutActivityType")
            ? workout.type.dropFirst(21) : workout.type[...]))
      let minutes = workout.durationMinutes.map { " " + HealthBrief.duration($0) } ?? ""
      ctx.line(
        "Workout: \(type)\(minutes), \(HealthJSON.clock(workout.start, offset: workout.offset)).")
    }
    for line in HealthBrief(report).lines { ctx.line(line) }
    if !report.flags.isEmpty {
      ctx.line(ctx.style.dim("Flags: " + report.flags.joined(separator: ", ")))
    }
  }
}
