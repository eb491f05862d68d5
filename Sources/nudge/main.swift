import Foundation
import NudgeCLI

/// The process's arguments. The Swift runtime captures argv in an ELF constructor; when a
/// preloaded library runs first (libfaketime in the time-fault tests) it sees none, so the
/// kernel's copy in /proc/self/cmdline is read instead.
func processArguments() -> [String] {
  if !CommandLine.arguments.isEmpty { return Array(CommandLine.arguments.dropFirst()) }
  guard let data = FileManager.default.contents(atPath: "/proc/self/cmdline") else { return [] }
  let words = data.split(separator: 0, omittingEmptySubsequences: false).map {
    String(decoding: $0, as: UTF8.self)
  }
  return Array(words.dropFirst().dropLast(data.last == 0 ? 1 : 0))
}

await NudgeMain.main(arguments: processArguments())
