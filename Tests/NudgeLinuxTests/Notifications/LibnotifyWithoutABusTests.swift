import Foundation
import NudgeCore
import Testing

@testable import NudgeLinux

@Suite struct LibnotifyWithoutABusTests {
  @Test func noSessionBusIsReportedAtOnceAndNothingIsShown() {
    let notifier = LibnotifyNotifier(environment: ["DBUS_SESSION_BUS_ADDRESS": "", "HOME": "/"])
    #expect(notifier.inspect() == .noSessionBus)
    let reason = notifier.unavailableReason(waitingForServer: 0)
    #expect(reason?.contains("no D-Bus session bus") == true, "\(reason ?? "nil")")
  }
}
