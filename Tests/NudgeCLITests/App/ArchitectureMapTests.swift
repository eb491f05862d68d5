import Foundation
import Testing

/// ARCHITECTURE.md held to the sources: the imports its table allows each target, every folder
/// of Sources/ named in its map, and no C library call in the CLI outside its one door, so the
/// map cannot drift from the code again.
@Suite struct ArchitectureMapTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static var map: String {
    (try? String(contentsOf: root.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8))
      ?? ""
  }

  /// The table's rows: target → (module → the only files that may import it, empty: any).
  static func allowedImports() -> [String: [String: [String]]] {
    var table: [String: [String: [String]]] = [:]
    for line in map.components(separatedBy: "\n") where line.hasPrefix("| ") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count == 2, cells[0] != "target", !cells[0].hasPrefix("-") else { continue }
      var modules: [String: [String]] = [:]
      for item in cells[1].components(separatedBy: ", ") {
        // "Glibc (App/Nudge.swift only: why)": that module in those files alone
        if let open = item.firstIndex(of: "(") {
          let name = item[..<open].trimmingCharacters(in: .whitespaces)
          let inside = item[item.index(after: open)...]
          let files = inside.prefix { $0 != " " && $0 != ")" }
          modules[name] = [String(files)]
        } else {
          modules[item] = []
        }
      }
      table[cells[0]] = modules
    }
    return table
  }

  static func sources(of target: String) -> [(path: String, text: String)] {
    let folder = root.appendingPathComponent("Sources/" + target)
    let walker = FileManager.default.enumerator(atPath: folder.path)
    var files: [(String, String)] = []
    while let name = walker?.nextObject() as? String {
      guard name.hasSuffix(".swift") else { continue }
      let text = (try? String(contentsOfFile: folder.path + "/" + name, encoding: .utf8)) ?? ""
      files.append((name, text))
    }
    return files.sorted { $0.0 < $1.0 }
  }

  /// The modules `text` imports, in any form Swift takes: `import M`, `@preconcurrency
  /// import M`, `public import M`, `import struct M.T`, `@testable import M`.
  static func imports(_ text: String) -> [String] {
    let pattern =
      #/^\s*(?:@\w+\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)/#
    return text.components(separatedBy: "\n").compactMap { line in
      (try? pattern.firstMatch(in: line)).flatMap { $0 }.map { String($0.1) }
    }
  }

  @Test func everyFormOfImportIsSeen() {
    let text = "import A\n@preconcurrency import B\npublic import C\nimport struct D.E\n// import F"
    #expect(Self.imports(text) == ["A", "B", "C", "D"])
  }

  static var targets: [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path + "/Sources")) ?? []
    return names.filter { name in
      sources(of: name).count > 0
    }.sorted()
  }

  @Test func everySwiftTargetHasItsRowAndImportsOnlyWhatItAllows() throws {
    let table = Self.allowedImports()
    try #require(table.count >= 6, "the map's import table has \(table.count) rows")
    for target in Self.targets {
      let allowed = try #require(table[target], "ARCHITECTURE.md has no import row for \(target)")
      for (path, text) in Self.sources(of: target) {
        for module in Self.imports(text) {
          guard let files = allowed[module] else {
            Issue.record(
              "\(target)/\(path) imports \(module), which the map does not allow \(target)")
            continue
          }
          #expect(
            files.isEmpty || files.contains(path),
            "\(target)/\(path) imports \(module), which the map allows only in \(files)")
        }
      }
    }
  }

  @Test func theMapNamesEveryFolderOfSources() {
    let map = Self.map
    let sources = Self.root.appendingPathComponent("Sources").path
    let walker = FileManager.default.enumerator(atPath: sources)
    while let path = walker?.nextObject() as? String {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: sources + "/" + path, isDirectory: &isFolder),
        isFolder.boolValue, !path.hasSuffix("include")
      else { continue }
      let name = (path as NSString).lastPathComponent
      let depth = path.split(separator: "/").count
      let named = map.contains(depth == 1 ? "\(name)/" : "  \(name)/")
      #expect(named, "ARCHITECTURE.md's map never names Sources/\(path)")
    }
  }

  /// The CLI reaches the C library only through NudgeLinux (`Context.platform`); its one
  /// door, App/Nudge.swift, ends the process.
  @Test func theCLICallsNoCLibraryFunctionItself() {
    let calls = [
      "realpath(", "gethostname(", " stat(", "lstat(", "access(", "getenv(", "setenv(",
      "geteuid(", "getuid(", "open(path", "fopen(", "unlink(", "rename(", "mkdir(", "kill(",
      "signal(", "sigaction(", "isatty(", "fstat(", "errno",
    ]
    for (path, text) in Self.sources(of: "NudgeCLI") where path != "App/Nudge.swift" {
      let code = text.components(separatedBy: "\n").filter {
        !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
      }.joined(separator: "\n")
      for call in calls {
        #expect(!code.contains(call), "NudgeCLI/\(path) calls \(call) itself")
      }
    }
  }

  /// scripts/fuzz compiles the core's files under another module name (NudgeFuzz), so a core
  /// file that names its own module (`NudgeCore.floorDiv`) builds here and breaks the fuzzer.
  @Test func theCoreNeverNamesItsOwnModule() {
    for (path, text) in Self.sources(of: "NudgeCore") {
      #expect(!text.contains("NudgeCore."), "NudgeCore/\(path) names its own module")
    }
  }
}
