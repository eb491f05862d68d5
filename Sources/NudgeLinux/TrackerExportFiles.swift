import Glibc
import NudgeCore

/// The CSV files of another tracker's export (Loop Habit Tracker's *Export as CSV*), read from
/// its zip (inflated in memory, never extracted) or from the folder it was unpacked into: each
/// by its path inside ("Habits.csv", "001 Meditate/Checkmarks.csv"), as UTF-8 text. Only
/// regular files two levels deep at most are read; links are not followed.
public enum TrackerExportFiles {
  /// The most CSV files read, and the most bytes of them all together.
  public static let maxFiles = 1000
  public static let maxTotalBytes = 256 << 20

  /// Whether `path` is a folder (not a link to one).
  public static func isFolder(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }

  /// The `.csv` files at `path` (a zip or a folder), each at most `limit` bytes; an error says
  /// which file and why, in one line without the path given.
  /// Only the files `wanted` names are read, and at most `maxTotalBytes` of them together.
  public static func csvFiles(
    at path: String, limit: Int, wanted: (String) -> Bool = { _ in true }
  ) throws -> [String: String] {
    var found: [String: String] = [:]
    var total = 0
    func fits(_ name: String, _ size: Int) throws {
      total += size
      guard total <= maxTotalBytes else {
        throw ExportFile.Failure(
          message: "its CSV files are more than the \(maxTotalBytes >> 20) MiB Nudge reads together"
        )
      }
    }
    func add(_ name: String, _ bytes: [UInt8]) throws {
      guard found.count < maxFiles else {
        throw ExportFile.Failure(message: "it holds more than \(maxFiles) CSV files")
      }
      guard let text = String(validating: bytes, as: UTF8.self) else {
        throw ExportFile.Failure(
          message: "its \(ZipDirectory.shown(name)) is not UTF-8 text")
      }
      found[name] = text
    }
    if isFolder(path) {
      for name in try csvNames(in: path, depth: 2) where wanted(name) {
        let file = try ExportFile(path: path + "/" + name)
        defer { file.close() }
        guard file.size <= limit else {
          throw ExportFile.Failure(
            message: "its \(ZipDirectory.shown(name)) is more than the \(limit) bytes Nudge reads")
        }
        try fits(name, file.size)
        try add(name, file.bytes(at: 0, count: file.size))
      }
      return found
    }
    let file = try ExportFile(path: path)
    defer { file.close() }
    guard file.kind() == .zip else {
      throw ExportFile.Failure(message: "it is neither a zip nor a folder of CSV files")
    }
    let zip = ZipReader(file: file)
    let directory: ZipDirectory
    do { directory = try zip.directory() } catch {
      throw ExportFile.Failure(message: error.message)
    }
    for entry in directory.entries where entry.name.hasSuffix(".csv") && wanted(entry.name) {
      try fits(entry.name, entry.size)
      try add(entry.name, try zip.entryBytes(entry, limit: limit))
    }
    return found
  }

  /// The names of the `.csv` regular files under `folder`, `depth` levels at most, by their
  /// path inside it.
  static func csvNames(in folder: String, depth: Int) throws -> [String] {
    guard let dir = opendir(folder) else {
      throw ExportFile.Failure(message: String(cString: strerror(errno)).lowercased())
    }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard name != ".", name != ".." else { continue }
      var info = stat()
      guard lstat(folder + "/" + name, &info) == 0 else { continue }
      switch info.st_mode & S_IFMT {
      case S_IFREG where name.hasSuffix(".csv"): names.append(name)
      case S_IFDIR where depth > 1:
        names += try csvNames(in: folder + "/" + name, depth: depth - 1).map { name + "/" + $0 }
      default: break
      }
      guard names.count <= maxFiles else {
        throw ExportFile.Failure(message: "it holds more than \(maxFiles) CSV files")
      }
    }
    return names.sorted()
  }
}
