import Foundation

/// JSON as Nudge writes it everywhere (exports, `--json`, stored state): sorted keys, two-space
/// indentation, slashes unescaped — one encoder, so every output reads the same.
public enum NudgeJSON {
  private static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  /// The value's JSON text, without a trailing newline.
  public static func encode<T: Encodable>(_ value: T) throws -> Data {
    try encoder.encode(value)
  }
}
