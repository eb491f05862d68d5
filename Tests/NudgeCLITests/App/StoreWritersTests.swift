import Foundation
import Testing

/// "Who writes the store", as ARCHITECTURE.md states it, held to the sources: a write of the
/// store (a public method of NudgeStore whose body runs a write transaction, or calls one
/// that does) is called only from the rooms the map names; a command parses, calls a use case
/// and renders.
@Suite struct StoreWritersTests {
  typealias Map = ArchitectureMapTests

  /// The rooms the map allows to write, from its line "Who writes the store: `A`, `B`, …".
  static func writers() -> [String] {
    guard
      let line = Map.map.components(separatedBy: "\n").first(where: {
        $0.hasPrefix("Who writes the store:")
      })
    else { return [] }
    return line.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map {
      String($0.element)
    }
  }

  /// Reads the map names as reads, though they keep a cache: `streakDays` moves the streak's
  /// checkpoint forward (what it returns is the same without it).
  static let readsKeepingACache: Set<String> = ["streakDays"]

  /// The store's public methods that write: those whose body opens a write transaction, and
  /// those that call one of them.
  static func writeMethods() -> Set<String> {
    var bodies: [String: [String]] = [:]
    for (_, text) in Map.sources(of: "NudgeStore") {
      let chars = Array(text)
      let pattern = #/public func (\w+)/#
      for match in text.matches(of: pattern) {
        let name = String(match.1)
        var i = text.distance(from: text.startIndex, to: match.range.upperBound)
        while i < chars.count && chars[i] != "{" { i += 1 }
        var depth = 0
        var j = i
        repeat {
          if chars[j] == "{" { depth += 1 } else if chars[j] == "}" { depth -= 1 }
          j += 1
        } while depth > 0 && j < chars.count
        bodies[name, default: []].append(String(chars[i..<j]))
      }
    }
    var writes = Set(
      bodies.filter { _, bodies in
        bodies.contains { $0.contains(#/\b(write|inTransaction)\s*[{(]/#) }
      }.keys)
    var grew = true
    while grew {
      grew = false
      for (name, bodies) in bodies where !writes.contains(name) {
        if bodies.contains(where: { body in writes.contains { body.contains("\($0)(") } }) {
          writes.insert(name)
          grew = true
        }
      }
    }
    return writes.subtracting(readsKeepingACache)
  }

  /// The store's methods `text` calls on a database (`db.NAME(`, `db.NAME {`).
  static func storeCalls(_ text: String) -> [String] {
    let code = text.components(separatedBy: "\n").filter {
      !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
    }.joined(separator: "\n")
    return code.matches(of: #/(?:\bdb|openDatabase\(\))\s*\.\s*(\w+)\s*[({]/#).map {
      String($0.1)
    }
  }

  @Test func theMapSaysWhoWritesAndTheWritesAreFound() throws {
    let writers = Self.writers()
    #expect(writers.contains("NudgeUseCases"), "the map's writers: \(writers)")
    let writes = Self.writeMethods()
    // (the finder finds what it must: a plain write, and one that writes through another)
    for known in ["putFlowEntry", "setSetting", "logReminder", "addHabit", "inTransaction"] {
      #expect(writes.contains(known), "\(known) is not seen as a write")
    }
    for read in ["settings", "habits", "doneFlows", "streakDays", "syncDevice"] {
      #expect(!writes.contains(read), "\(read) is seen as a write")
    }
    #expect(Self.storeCalls("try db.setSetting(k, to: v)\n// db.leaveSync()") == ["setSetting"])
    #expect(Self.storeCalls("try ctx.openDatabase().leaveSync()") == ["leaveSync"])
  }

  @Test func onlyTheRoomsTheMapNamesWriteTheStore() {
    let writers = Self.writers()
    let writes = Self.writeMethods()
    for target in Map.targets where target != "NudgeStore" {
      for (path, text) in Map.sources(of: target) {
        let room = "\(target)/\(path)"
        guard !writers.contains(where: { room == $0 || room.hasPrefix($0 + "/") }) else {
          continue
        }
        for call in Self.storeCalls(text) where writes.contains(call) {
          Issue.record(
            "\(room) writes the store itself (db.\(call)); the map lets only \(writers) write it: call a use case"
          )
        }
      }
    }
  }
}
