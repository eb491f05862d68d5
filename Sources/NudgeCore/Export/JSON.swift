import FoundationEssentials

/// JSON as Nudge writes and reads it everywhere (exports, `--json`, stored state): snake_case
/// keys from the Swift property names (`savedAt` is `saved_at`, as in the database), sorted
/// keys, two-space indentation, slashes unescaped — one encoder and one decoder, so every
/// output reads the same and no type spells out its keys.
public enum NudgeJSON {
  private static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.keyEncodingStrategy = .convertToSnakeCase
    return encoder
  }()

  private static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return decoder
  }()

  /// The value's JSON text, without a trailing newline.
  public static func encode<T: Encodable>(_ value: T) throws -> Data {
    try encoder.encode(value)
  }

  /// Decodes what `encode` wrote (snake_case keys).
  public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    try decoder.decode(type, from: data)
  }
}
