import FoundationEssentials

extension ExportDocument {
  private struct Header: Decodable {
    var format: String?
    var version: Int?
  }

  /// The largest document `import` reads (a life's entries are a few megabytes).
  public static let maxBytes = 64 << 20
  /// How deep its objects and arrays may nest (Nudge's own documents go three deep).
  public static let maxDepth = 16
  /// The most items one list may hold (a hundred years of days).
  public static let maxItems = 40_000
  /// The most JSON values a document may hold (a hundred years of entries is under a
  /// million): an unknown key holding millions of values is refused before it is decoded.
  public static let maxValues = 2_000_000

  /// Decodes and checks a document; the error says what is wrong and where.
  public static func decode(_ data: Data) throws(InputError) -> ExportDocument {
    guard data.count <= maxBytes else {
      throw InputError(
        "it is larger than \(maxBytes >> 20) MiB, more than any Nudge export; pass a file written by 'nudge export'."
      )
    }
    try checkNesting(data)
    // an object or an array, as JSONSerialization wants one at the top
    let first = data.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
      throw InputError(notJSON)
    }
    // what `nudge export` writes is read byte by byte; anything else goes to the decoder
    if let document = ExportReader.read(Array(data)) {
      try document.validate()
      return document
    }
    // one parse: the decoder reads the whole text before `Checked` looks at it, so whatever
    // it throws is the text not being JSON; `Checked` itself never throws
    let checked: Checked
    do {
      checked = try NudgeJSON.decode(Checked.self, from: data)
    } catch {
      throw InputError(notJSON)
    }
    let document = try checked.result.get()
    try document.validate()
    return document
  }

  private static let notJSON = "it is not valid JSON; pass a file written by 'nudge export'."

  /// A document read in one pass: its header first (the format, then a version this Nudge
  /// reads), then the rest; what is wrong is kept as the result, never thrown.
  private struct Checked: Decodable {
    let result: Result<ExportDocument, InputError>

    init(from decoder: any Decoder) {
      result = Result { () throws(InputError) in
        guard let header = try? Header(from: decoder), header.format == formatName else {
          throw InputError(
            "it is not a Nudge export (expected \"format\": \"\(formatName)\" at the top level).")
        }
        guard let version = header.version, version >= 1 else {
          throw InputError("\"version\" is missing or not a positive whole number.")
        }
        guard version <= currentVersion else {
          throw InputError(
            "it was written by a newer Nudge (export version \(version)); this Nudge reads version \(currentVersion). Update Nudge, then import again."
          )
        }
        do {
          return try ExportDocument(from: decoder)
        } catch let error as DecodingError {
          throw InputError(describe(error))
        } catch {
          // what the decoder reads only when a value is taken (a string's escapes) is the
          // text not being JSON, as the parse would have said
          throw InputError(notJSON)
        }
      }
    }
  }

  /// Refuses objects and arrays nested deeper than `maxDepth`, and more than `maxValues`
  /// values, in one pass over the bytes, before a decoder builds or recurses into them.
  static func checkNesting(_ data: Data) throws(InputError) {
    // read through the bytes themselves: Data's own iterator costs more than the scan
    let result = data.withUnsafeBytes { bytes in
      Result { () throws(InputError) in try checkNesting(bytes) }
    }
    try result.get()
  }

  private static func checkNesting(_ data: UnsafeRawBufferPointer) throws(InputError) {
    var depth = 0
    var values = 1
    var inString = false
    var escaped = false
    for byte in data {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        if depth > maxDepth {
          throw InputError(
            "its objects and arrays nest deeper than \(maxDepth) levels, which no Nudge export does; pass a file written by 'nudge export'."
          )
        }
      case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
      case UInt8(ascii: ","), UInt8(ascii: ":"):
        values += 1
        if values > maxValues {
          throw InputError(
            "it holds more than \(maxValues) values, far more than any Nudge export; pass a file written by 'nudge export'."
          )
        }
      default: break
      }
    }
  }

  private static func path(_ codingPath: [any CodingKey]) -> String {
    var out = ""
    for key in codingPath {
      if let index = key.intValue {
        out += "[\(index)]"
      } else {
        // the key as the document spells it (the decoder read `saved_at` as `savedAt`)
        let name = snakeCase(key.stringValue)
        out += out.isEmpty ? name : ".\(name)"
      }
    }
    return out.isEmpty ? "the top level" : out
  }

  private static func snakeCase(_ name: String) -> String {
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

  private static func describe(_ error: DecodingError) -> String {
    switch error {
    case .keyNotFound(let key, let context):
      return "\(path(context.codingPath + [key])) is missing."
    case .typeMismatch(let type, let context):
      return "\(path(context.codingPath)) has the wrong type (expected \(type))."
    case .valueNotFound(let type, let context):
      return "\(path(context.codingPath)) is null (expected \(type))."
    case .dataCorrupted(let context):
      return "\(path(context.codingPath)): \(context.debugDescription)."
    @unknown default:
      return "\(error)"
    }
  }
}
