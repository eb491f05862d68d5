import Dispatch
import FoundationEssentials
import NudgeCore
import NudgeLinux
import NudgeStore
import Synchronization

/// ANSI emphasis that turns itself off where colour is unwanted.
public struct Style: Sendable {
  public let enabled: Bool

  func wrap(_ code: String, _ text: String) -> String {
    enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  func bold(_ t: String) -> String { wrap("1", t) }
  func dim(_ t: String) -> String { wrap("2", t) }
  func green(_ t: String) -> String { wrap("32", t) }
  func yellow(_ t: String) -> String { wrap("33", t) }
  func cyan(_ t: String) -> String { wrap("36", t) }
  func blue(_ t: String) -> String { wrap("34", t) }
  func red(_ t: String) -> String { wrap("31", t) }
}
