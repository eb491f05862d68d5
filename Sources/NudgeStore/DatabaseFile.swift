import Glibc

/// Where the database lives: `NUDGE_DB`, else `$XDG_DATA_HOME/nudge/nudge.sqlite3`,
/// else `~/.local/share/nudge/nudge.sqlite3`.
public enum DatabaseLocation {
  public static func path(environment: [String: String]) -> String {
    // set but empty is refused where the database is opened, not taken for unset
    if let explicit = environment["NUDGE_DB"] { return explicit }
    let dataHome: String
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      dataHome = xdg
    } else {
      let home = HomeDirectory.path(environment: environment)
      dataHome = home + "/.local/share"
    }
    return dataHome + "/nudge/nudge.sqlite3"
  }
}

extension DatabaseLocation {
  /// Whether two paths name one file: the same device and inode when both exist, else the
  /// same text.
  public static func isSameFile(_ a: String, _ b: String) -> Bool {
    var x = stat()
    var y = stat()
    if stat(a, &x) == 0, stat(b, &y) == 0 { return x.st_dev == y.st_dev && x.st_ino == y.st_ino }
    return a == b
  }
}

/// The person's home directory: `HOME`, else what the password database names.
public enum HomeDirectory {
  public static func path(environment: [String: String]) -> String {
    environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? passwd()
  }

  private static func passwd() -> String {
    getpwuid(getuid()).flatMap { $0.pointee.pw_dir.map { String(cString: $0) } } ?? "/"
  }
}

/// What the first 100 bytes of a database file say, read before SQLite touches it.
public struct DatabaseFileHeader: Equatable, Sendable {
  public static let applicationID: UInt32 = 0x4E55_4447  // "NUDG"

  public let pageSize: Int
  public let pageCount: Int
  public let countIsValid: Bool
  public let userVersion: Int
  public let applicationID: UInt32
  /// Whether the file is in WAL mode (read and write format versions 2).
  public let isWAL: Bool

  /// Parses the SQLite header; nil when the bytes are not one.
  public init?(_ bytes: [UInt8]) {
    let magic = Array("SQLite format 3\0".utf8)
    guard bytes.count >= 100, Array(bytes[0..<16]) == magic else { return nil }
    func u32(_ at: Int) -> UInt32 {
      bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
    let rawPageSize = Int(bytes[16]) << 8 | Int(bytes[17])
    pageSize = rawPageSize == 1 ? 65536 : rawPageSize
    pageCount = Int(u32(28))
    countIsValid = u32(24) == u32(92) && pageCount > 0
    userVersion = Int(Int32(bitPattern: u32(60)))
    applicationID = u32(68)
    isWAL = bytes[18] == 2 && bytes[19] == 2
  }

  /// Refuses files Nudge must not open: not SQLite, another program's, newer, or truncated;
  /// the header of one it may open.
  @discardableResult
  public static func check(path: String, knownVersion: Int) throws(StoreError)
    -> DatabaseFileHeader
  {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw .cannotCreate(
        "Cannot read the database at \(path): check its permissions, or set NUDGE_DB to another file."
      )
    }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: 100)
    let got = pread(fd, &bytes, 100, 0)
    bytes.removeLast(100 - max(0, got))
    let size = fileSize(path)
    let keep =
      "Nudge left it untouched; move it away (or set NUDGE_DB to another file) to start fresh."
    if size == 0 {
      throw .notNudgeDatabase("\(path) is empty (0 bytes), not a Nudge database. \(keep)")
    }
    guard let header = DatabaseFileHeader(bytes) else {
      throw .notNudgeDatabase("\(path) is not a SQLite database. \(keep)")
    }
    guard header.applicationID == applicationID else {
      throw .notNudgeDatabase(
        "\(path) is a SQLite database of another program, not Nudge's. \(keep)")
    }
    if header.userVersion > knownVersion {
      throw .newerSchema(
        "\(path) was written by a newer Nudge (schema \(header.userVersion); this one knows \(knownVersion)). Update Nudge; the file was left untouched."
      )
    }
    let walSize = fileSize(path + "-wal")
    if header.countIsValid, walSize == 0, header.pageCount * header.pageSize > size {
      throw .notNudgeDatabase(
        "\(path) is truncated (\(size) of \(header.pageCount * header.pageSize) bytes). Restore it from a backup or 'nudge export'; \(keep)"
      )
    }
    return header
  }
}

/// The size of the file at `path` in bytes; 0 when it cannot be read.
private func fileSize(_ path: String) -> Int {
  var info = stat()
  return stat(path, &info) == 0 ? Int(info.st_size) : 0
}
