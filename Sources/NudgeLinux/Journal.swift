internal import CDesktop
import FoundationEssentials
import Glibc
import NudgeCore

/// Writes structured entries to the systemd journal through `sd_journal_sendv`.
public enum Journal {
  /// Syslog priorities as journald stores them.
  public enum Priority: Int, Sendable {
    case error = 3
    case warning = 4
    case info = 6
  }

  /// True when stderr is connected to the journal (a systemd service), per `JOURNAL_STREAM`.
  public static func stderrIsJournal(environment: [String: String]) -> Bool {
    guard let stream = environment["JOURNAL_STREAM"] else { return false }
    var st = stat()
    guard fstat(STDERR_FILENO, &st) == 0 else { return false }
    return stream == "\(st.st_dev):\(st.st_ino)"
  }

  /// Sends one entry; returns false when journald is not reachable.
  @discardableResult
  public static func send(_ message: String, priority: Priority, fields: [String: String] = [:])
    -> Bool
  {
    guard nd_load(ND_SYSTEMD) == nil else { return false }
    var lines = [
      "MESSAGE=\(VisibleText.escaped(message))", "PRIORITY=\(priority.rawValue)",
      "SYSLOG_IDENTIFIER=nudge",
    ]
    for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
      lines.append("\(key)=\(VisibleText.escaped(value))")
    }
    let buffers = lines.map { strdup($0)! }
    defer { for buffer in buffers { free(buffer) } }
    var vectors = buffers.map { iovec(iov_base: UnsafeMutableRawPointer($0), iov_len: strlen($0)) }
    return nd_sd_journal_sendv(&vectors, Int32(vectors.count)) >= 0
  }
}
