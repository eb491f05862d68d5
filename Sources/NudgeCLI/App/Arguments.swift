import ArgumentParser
import NudgeCore

// The core's enums as command-line values: argument-parser parses them, lists them in
// `--help`, completes them, and refuses anything else with a one-line usage error (64).

extension ReminderSource: ExpressibleByArgument {}
extension Challenge: ExpressibleByArgument {}
extension HelpCategory: ExpressibleByArgument {}
extension CelebrationTier: ExpressibleByArgument {}
extension SettingKey: ExpressibleByArgument {}

extension Achievement: ExpressibleByArgument {
  /// A key (`streak-7`) or a title, in any case, spaces or dashes (`"7-day streak"`).
  public init?(argument: String) {
    let wanted = argument.lowercased().replacing(" ", with: "-")
    guard
      let found = Achievement(rawValue: argument)
        ?? Achievement.allCases.first(where: {
          $0.title.lowercased().replacing(" ", with: "-") == wanted
        })
    else { return nil }
    self = found
  }
}

/// A yes/no answer given as a value (`--followed yes`): yes, y, true, 1 or no, n, false, 0.
struct YesNo: ExpressibleByArgument, Equatable {
  var value: Bool

  init(_ value: Bool) { self.value = value }

  init?(argument: String) {
    guard let value = yesNoValue(argument) else { return nil }
    self.value = value
  }

  static var allValueStrings: [String] { ["yes", "no"] }
  static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// One prep item and whether it is ready (`--item water=yes`).
struct PrepAnswer: ExpressibleByArgument, Equatable {
  var item: PrepItem
  var ready: Bool

  init?(argument: String) {
    let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2, let item = PrepItem(rawValue: parts[0]),
      let ready = yesNoValue(parts[1])
    else { return nil }
    (self.item, self.ready) = (item, ready)
  }

  static var allValueStrings: [String] {
    PrepItem.allCases.flatMap { ["\($0.rawValue)=yes", "\($0.rawValue)=no"] }
  }
  static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}
