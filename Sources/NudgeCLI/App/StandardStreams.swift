import Dispatch
import FoundationEssentials
import NudgeCore
import NudgeLinux
import NudgeStore
import Synchronization

/// Standard input, read line by line.
final class StandardInput: LineInput {
  let platform: any Platform
  let isTerminal: Bool

  init(platform: any Platform) {
    self.platform = platform
    isTerminal = platform.isTerminal(.input)
  }

  /// Answers typed on a terminal are read with line editing (and this run's history).
  private let editor = Mutex<LineEditor?>(nil)

  func readLine() -> String? { readLine(offering: nil) }

  func readLine(offering: String?) -> String? {
    guard isTerminal, let terminal = platform.terminal() else {
      return platform.readInputLine(maxBytes: StandardInput.maxLineBytes)
    }
    // Ctrl-D ends one answer, not every later read, so a window can still say "Press Enter"
    return editor.withLock { editor in
      if editor == nil {
        editor = LineEditor(terminal: terminal) { [platform] in platform.raiseInterrupt() }
      }
      return editor?.readLine(offering: offering)
    }
  }

  func readAll(limit: Int) -> Data? { platform.readAllInput(limit: limit).map { Data($0) } }

  /// The longest line read from a pipe: far more than any answer may be, so the flow says
  /// the answer is too long instead of reading a line without end.
  static let maxLineBytes = 64 * 1024

  var wasInterrupted: Bool { platform.interruptPending }

  func catchInterrupts() { platform.catchInterrupts() }

  func waitForLine(seconds: Double) -> Bool { platform.waitForInput(seconds: seconds) }
}

/// Standard output and standard error, unbuffered so prompts show before input.
final class StandardOutput: TextOutput {
  let platform: any Platform
  let isTerminal: Bool

  init(platform: any Platform) {
    self.platform = platform
    isTerminal = platform.isTerminal(.output)
  }

  func write(_ text: String) { platform.write(text, to: .output) }

  func writeError(_ text: String) { platform.write(text, to: .error) }

  /// Standard output's descriptor.
  var descriptor: Int32? { 1 }
}
