import Foundation
import NudgeCore
import Testing

@testable import NudgeStore

/// `read` and `write` nest: a call from inside another's body joins its transaction.
@Suite struct NestedTransactionTests {
  struct Boom: Error {}

  @Test func aReadInsideAWriteSeesTheWritesUncommittedRows() throws {
    let db = try AppDatabase.inMemory()
    let seen = try db.write { conn in
      try conn.recordTrigger(.morning, at: 42)
      return try db.lastTrigger(.morning)  // a public method: its own read, nested
    }
    #expect(seen == 42)
  }

  @Test func aNestedWriteThatFailsTakesBackOnlyItsOwnRows() throws {
    let db = try AppDatabase.inMemory()
    try db.write { conn in
      try conn.recordTrigger(.evening, at: 7)
      #expect(throws: StoreError.self) {
        try db.write { inner in
          try inner.recordTrigger(.midday, at: 9)
          throw Boom()
        }
      }
    }
    #expect(try db.lastTrigger(.evening) == 7)
    #expect(try db.lastTrigger(.midday) == nil)
  }

  @Test func anOuterWriteThatFailsTakesBackWhatNestedCallsWrote() throws {
    let db = try AppDatabase.inMemory()
    #expect(throws: StoreError.self) {
      try db.write { _ in
        try db.recordTrigger(.weekly, at: 1)
        try db.saveSnooze(Snooze(slot: .weekly, due: 5, elapse: nil))
        throw Boom()
      }
    }
    #expect(try db.lastTrigger(.weekly) == nil)
    #expect(try db.snoozes().isEmpty)
  }

  @Test func otherThreadsStillWaitForTheWholeTransaction() async throws {
    let db = try AppDatabase.inMemory()
    await withTaskGroup(of: Void.self) { group in
      for i in 0..<8 {
        group.addTask {
          _ = try? db.write { conn in
            let count = try conn.lastTrigger(.morning) ?? 0
            try conn.recordTrigger(.morning, at: count + 1)
            _ = try db.lastTrigger(.evening)  // nested, on this task's thread
            return i
          }
        }
      }
    }
    #expect(try db.lastTrigger(.morning) == 8)
  }
}
