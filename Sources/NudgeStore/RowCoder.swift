import FoundationEssentials
import NudgeCore

// A record's row, read and written through the record's Codable conformance: each stored
// property is one column, named like its JSON key (`savedAt` is `saved_at`). The property
// declares the column once; the schema (Schema.swift) is the only other place that names it.

/// The column a property is kept in: its coding key in snake_case, as NudgeJSON names it.
///
/// Called for every column of every row read or written, so it looks at bytes, not characters:
/// a key without an uppercase letter (most are: `day`, `slot`, `note`) is its own name, and an
/// ASCII camelCase key is rewritten byte by byte; only a key outside ASCII (no record has one)
/// takes the Unicode path.
func columnName(_ key: any CodingKey) -> String {
  let name = key.stringValue
  var hasUpper = false
  for byte in name.utf8 {
    if byte >= 0x80 { return unicodeColumnName(name) }
    if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { hasUpper = true }
  }
  guard hasUpper else { return name }
  var bytes: [UInt8] = []
  bytes.reserveCapacity(name.utf8.count + 4)
  for byte in name.utf8 {
    if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") {
      bytes.append(UInt8(ascii: "_"))
      bytes.append(byte + 0x20)
    } else {
      bytes.append(byte)
    }
  }
  return String(decoding: bytes, as: UTF8.self)
}

/// `columnName` one character at a time, for a key outside ASCII.
func unicodeColumnName(_ name: String) -> String {
  var out = ""
  for character in name {
    if character.isUppercase {
      out += "_" + character.lowercased()
    } else {
      out.append(character)
    }
  }
  return out
}

extension SQLValue {
  /// How a property's value is stored: text for strings, days and enum cases, integers for
  /// numbers and flags, compact JSON for anything else (a list, a nested value).
  init<T: Encodable>(encoding value: T) throws {
    switch value {
    case let value as any TextColumn: self = .text(value.column)
    case let value as String: self = .text(value)
    case let value as Bool: self = .integer(value ? 1 : 0)
    case let value as Int: self = .integer(Int64(value))
    case let value as Int64: self = .integer(value)
    case let value as UInt64:
      guard let number = Int64(exactly: value) else {
        throw EncodingError.invalidValue(
          value, .init(codingPath: [], debugDescription: "beyond SQLite's integers"))
      }
      self = .integer(number)
    default: self = .text(String(decoding: try rowJSON.encode(value), as: UTF8.self))
    }
  }
}

/// JSON kept in a column: NudgeJSON's keys, on one line.
private let rowJSON: JSONEncoder = {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  encoder.keyEncodingStrategy = .convertToSnakeCase
  return encoder
}()

extension Row {
  /// The value of `column` as a property of type `T` holds it; an unknown enum text, a NULL
  /// where a value is needed or JSON that does not decode is an `UnreadableValue`.
  func decoded<T: Decodable>(_ type: T.Type, _ column: String) throws -> T {
    let text = try text(column)
    guard let value = try stored(T.self, column, text) as? T else {
      throw UnreadableValue(column: column, text: text)
    }
    return value
  }

  private func stored<T: Decodable>(_ type: T.Type, _ column: String, _ text: String?) throws
    -> Any?
  {
    switch type {
    case is String.Type: return text
    case is Bool.Type: return try bool(column)
    case is Int.Type: return try int(column)
    case is Int64.Type: return try int(column).map { Int64($0) }
    case is UInt64.Type: return try int(column).flatMap { UInt64(exactly: $0) }
    case let textType as any TextColumn.Type: return text.flatMap { textType.init(column: $0) }
    default: return text.flatMap { try? NudgeJSON.decode(T.self, from: Data($0.utf8)) }
    }
  }
}

extension TableRecord {
  /// Reads a row selected with `SELECT *` (columns the record has no property for are ignored).
  init(row: Row) throws { try self.init(from: RowDecoder(row: row)) }

  /// The row's columns and their values, key column included, in declaration order.
  func columns() throws -> [(name: String, value: SQLValue)] {
    let encoder = RowEncoder()
    try encode(to: encoder)
    return encoder.storage.columns
  }
}

// MARK: - The coder

/// What a record's keyed coding is not: an unkeyed or single value is not a row.
private func notARow(_ codingPath: [any CodingKey]) -> DecodingError {
  .typeMismatch(Row.self, .init(codingPath: codingPath, debugDescription: "a record is a row"))
}

private struct RowDecoder: Decoder {
  let row: Row
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(RowDecodingContainer(row: row))
  }
  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw notARow(codingPath) }
  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    throw notARow(codingPath)
  }
}

private struct RowDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let row: Row
  var codingPath: [any CodingKey] { [] }
  var allKeys: [Key] { [] }

  func contains(_ key: Key) -> Bool { row.has(columnName(key)) }
  func decodeNil(forKey key: Key) throws -> Bool { try row.text(columnName(key)) == nil }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(key) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(key) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(key) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(key) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(key) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(key) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(key) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(key) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(key) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(key) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(key) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(key) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(key) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(key) }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try value(key) }

  private func value<T: Decodable>(_ key: Key) throws -> T {
    try row.decoded(T.self, columnName(key))
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
    throws -> KeyedDecodingContainer<NestedKey>
  { throw notARow([key]) }
  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    throw notARow([key])
  }
  func superDecoder() throws -> any Decoder { throw notARow([]) }
  func superDecoder(forKey key: Key) throws -> any Decoder { throw notARow([key]) }
}

/// The columns a record encodes to, in order.
private final class ColumnList {
  var columns: [(name: String, value: SQLValue)] = []
}

private struct RowEncoder: Encoder {
  let storage = ColumnList()
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(RowEncodingContainer(storage: storage))
  }
  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    preconditionFailure("a record is stored as a row of columns, not a list")
  }
  func singleValueContainer() -> any SingleValueEncodingContainer {
    preconditionFailure("a record is stored as a row of columns, not one value")
  }
}

private struct RowEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let storage: ColumnList
  var codingPath: [any CodingKey] { [] }

  private func put<T: Encodable>(_ value: T?, _ key: Key) throws {
    storage.columns.append((columnName(key), try value.map { try SQLValue(encoding: $0) } ?? .null))
  }

  mutating func encodeNil(forKey key: Key) throws { try put(String?.none, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: String, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(value, key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(value, key) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try put(value, key) }

  // A nil optional is a NULL column, not a missing one: an upsert must clear it.
  mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try put(value, key) }
  mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try put(value, key) }
  mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try put(value, key) }
  mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try put(value, key) }
  mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try put(value, key) }
  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
    try put(value, key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    preconditionFailure("a column holds one value")
  }
  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    preconditionFailure("a column holds one value")
  }
  mutating func superEncoder() -> any Encoder { preconditionFailure("a record has no super row") }
  mutating func superEncoder(forKey key: Key) -> any Encoder {
    preconditionFailure("a record has no super row")
  }
}
