import NudgeCore

/// The one place a command's `--json` is decided: the command makes its result and says how a
/// person reads it; this prints the result as one JSON document (sorted keys, as `NudgeJSON`
/// writes it) when `json`, else runs `text`. No command prints JSON itself
/// (`RenderingTests` holds it so).
extension Context {
  func render<Value: Encodable>(
    _ value: @autoclosure () throws -> Value, json: Bool, text: () throws -> Void
  ) throws {
    if json {
      line(String(decoding: try NudgeJSON.encode(try value()), as: UTF8.self))
    } else {
      try text()
    }
  }
}

extension Context {
  /// The same for a result that is already a JSON document, written by a contract of its own
  /// (`nudge health --json`'s version 1, byte for byte).
  func render(document: @autoclosure () throws -> String, json: Bool, text: () throws -> Void)
    throws
  {
    if json {
      line(try document())
    } else {
      try text()
    }
  }
}
