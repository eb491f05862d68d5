import Foundation
import Testing

@testable import NudgeCore

/// The files the binary writes (units, the nudge:// handler, the icon) are the repository's
/// `units/` and `deeplinks/` files, byte for byte; each slot's service is bounded by its window.
@Suite struct UnitFilesTests {
  @Test(arguments: [
    ("units/nudge-notify@.service", UnitFiles.serviceTemplate),
    ("units/nudge-slot.timer", UnitFiles.timerTemplate),
    ("units/nudge-tray.service", UnitFiles.trayServiceTemplate),
    ("deeplinks/nudge.desktop", LinkHandlerFile.template),
    ("deeplinks/nudge.svg", AppIcon.svg),
  ])
  func filesInTheRepositoryMatchWhatTheBinaryWrites(path: String, embedded: String) throws {
    // the repository: the first folder above this file that holds Package.swift
    var root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path)
    {
      root = root.deletingLastPathComponent()
    }
    let file = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    #expect(file == embedded)
    #expect(LinkHandlerFile.template.contains("Icon=nudge\n"))
  }

  @Test func eachSlotsServiceIsBoundedByItsStalenessWindow() {
    let settings = Settings(stored: ["staleness.morning": "2h"])
    let files = UnitFiles.render(
      binary: "/usr/bin/nudge", schedules: ReminderSource.allCases.map(SlotSchedule.defaults),
      settings: settings)
    let window = files.first { $0.path == "nudge-notify@morning.service.d/window.conf" }
    #expect(window?.text.contains("RuntimeMaxSec=\(2 * 3600 + UnitFiles.waitMargin)s\n") == true)
    let evening = files.first { $0.path == "nudge-notify@evening.service.d/window.conf" }
    #expect(evening?.text.contains("RuntimeMaxSec=\(4 * 3600 + UnitFiles.waitMargin)s\n") == true)
  }
}
