import NudgeCore
import NudgeLinux
import Testing

/// The locale's first weekday, read from the C library's real locale data (en_US, de_DE and
/// ar_EG are made by `scripts/install-deps --test`); C, a locale not installed and a hostile
/// name give none.
@Suite struct LocaleWeekTests {
  @Test func eachLocaleGivesItsFirstWeekday() throws {
    // without them this test cannot say anything: it fails, saying what to run
    let installed = LocaleWeek.start(environment: ["LANG": "de_DE.UTF-8"])
    try #require(
      installed != nil, "the de_DE.UTF-8 locale is missing: run scripts/install-deps --test")
    #expect(LocaleWeek.start(environment: ["LANG": "en_US.UTF-8"]) == .sunday)
    #expect(LocaleWeek.start(environment: ["LANG": "de_DE.UTF-8"]) == .monday)
    #expect(LocaleWeek.start(environment: ["LANG": "ar_EG.UTF-8"]) == .saturday)
    // LC_ALL over LC_TIME over LANG; an empty one is passed over
    #expect(
      LocaleWeek.start(environment: ["LC_ALL": "", "LC_TIME": "en_US.UTF-8", "LANG": "de_DE.UTF-8"])
        == .sunday)
    #expect(
      LocaleWeek.start(environment: ["LC_ALL": "ar_EG.UTF-8", "LC_TIME": "en_US.UTF-8"])
        == .saturday)
  }

  @Test func cNoneAndHostileNamesGiveNone() {
    for environment: [String: String] in [
      [:], ["LANG": "C"], ["LANG": "C.UTF-8"], ["LC_ALL": "POSIX"], ["LANG": "xx_YY.UTF-8"],
      ["LANG": "/etc/passwd"], ["LANG": "../../tmp/x"],
      ["LANG": String(repeating: "a", count: 500)],
      ["LANG": "en_US.UTF-8\n"], ["LANG": ".hidden"],
    ] {
      #expect(LocaleWeek.start(environment: environment) == nil, "\(environment)")
    }
  }
}
