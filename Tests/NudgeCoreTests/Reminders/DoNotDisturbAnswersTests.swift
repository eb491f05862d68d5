import NudgeCore
import Testing

/// Do Not Disturb as each kind of notification server says it.
@Suite struct DoNotDisturbAnswersTests {
  @Test func plasmasInhibitedDecidesFirst() {
    #expect(DoNotDisturbAnswers(inhibited: true).visibility { true } == .held)
    #expect(DoNotDisturbAnswers(inhibited: false, paused: true).visibility { true } == .shown)
  }

  @Test func dunstsPausedDecidesWithoutInhibited() {
    #expect(DoNotDisturbAnswers(paused: true, serverName: "dunst").visibility { true } == .held)
    #expect(DoNotDisturbAnswers(paused: false, serverName: "dunst").visibility { true } == .shown)
  }

  @Test func gnomeShellSaysItByItsBannersSwitchOnly() {
    let gnome = DoNotDisturbAnswers(serverName: "gnome-shell")
    #expect(gnome.visibility { false } == .held)
    #expect(gnome.visibility { true } == .shown)
    var asked = false
    let xfce = DoNotDisturbAnswers(serverName: "Xfce Notify Daemon")
    #expect(
      xfce.visibility {
        asked = true
        return false
      } == .shown)
    #expect(!asked)
  }

  @Test func aServerThatSaysNothingShows() {
    #expect(DoNotDisturbAnswers().visibility { false } == .shown)
  }
}
