import Foundation
import Testing

@testable import NudgeCore

@Suite struct SettingsTests {
  @Test(arguments: [
    ("rollover-hour", "0", "0"), ("rollover-hour", " 4 ", "4"), ("celebrations", "OFF", "off"),
    ("celebrations", "yes", "on"), ("staleness.morning", "90m", "1h30m"),
    ("staleness.evening", "2h30m", "2h30m"), ("terminal", "xterm -e", "xterm -e"),
  ])
  func acceptsAndCanonicalisesValues(key: String, value: String, expected: String) throws {
    #expect(try SettingKey.named(key).validate(value) == expected)
  }

  @Test(arguments: [
    ("rollover-hour", "13"), ("rollover-hour", "-1"), ("rollover-hour", "4h"),
    ("celebrations", "maybe"), ("staleness.midday", "0m"), ("staleness.midday", "25h"),
    ("staleness.midday", "4"), ("terminal", "xterm -e 'unclosed"),
  ])
  func refusesInvalidValuesSayingWhatIsAllowed(key: String, value: String) throws {
    let setting = try SettingKey.named(key)
    let error = #expect(throws: InputError.self) { try setting.validate(value) }
    #expect(error?.message.contains(setting.allowed) == true)
  }

  @Test func unknownKeyListsTheKeys() {
    let error = #expect(throws: InputError.self) { try SettingKey.named("colour") }
    #expect(error?.message.contains("rollover-hour, celebrations") == true)
  }

  @Test func storedGarbageFallsBackToDefaults() {
    let s = Settings(stored: ["rollover-hour": "99", "celebrations": "off"])
    #expect(s.rolloverHour == 4)
    #expect(!s.celebrationsOn)
    #expect(s.stalenessSeconds(for: .morning) == 4 * 3600)
  }

  @Test func splitsCommandLinesWithoutAShell() throws {
    #expect(
      try CommandLineWords.split(#"tmux new-window -n "nudge flow" 'a b' c\ d"#) == [
        "tmux", "new-window", "-n", "nudge flow", "a b", "c d",
      ])
    #expect(throws: InputError.self) { try CommandLineWords.split("a \"b") }
  }

  @Test func freeTextRefusesControlCharactersAndTrims() throws {
    #expect(try FreeText.clean("  water  ", field: "x") == "water")
    #expect(try FreeText.clean("   ", field: "x") == nil)
    #expect(throws: InputError.self) { try FreeText.clean("a\u{1B}[31mb", field: "x") }
    #expect(throws: InputError.self) {
      try FreeText.clean(String(repeating: "a", count: 1001), field: "x")
    }
  }
}
