/// RFC 4180 text read as rows of fields, as spreadsheets and phone apps write it: a UTF-8 byte
/// order mark at the start is dropped, lines end with LF or CRLF, a field in double quotes may
/// hold commas, doubled quotes and line ends. Each row keeps the line it starts on, for a
/// refusal that names it.
public enum CSVText {
  /// One record and the line (from 1) it starts on.
  public struct Row: Equatable, Sendable {
    public var line: Int
    public var fields: [String]

    public init(line: Int, fields: [String]) {
      self.line = line
      self.fields = fields
    }
  }

  /// The records of `text` (blank lines skipped); an error names the line of a quote left open
  /// or a quote in the middle of a field.
  public static func rows(_ text: String) throws(InputError) -> [Row] {
    var rows: [Row] = []
    var fields: [String] = []
    var field = ""
    var line = 1
    var rowLine = 1
    var quoted = false
    var wasQuoted = false
    var scalars = text.unicodeScalars[...]
    if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
    var iterator = scalars.makeIterator()
    var pending = iterator.next()
    func endRow() {
      fields.append(field)
      if !(fields.count == 1 && fields[0].isEmpty && !wasQuoted) {
        rows.append(Row(line: rowLine, fields: fields))
      }
      fields = []
      field = ""
      wasQuoted = false
    }
    while let scalar = pending {
      pending = iterator.next()
      if quoted {
        if scalar == "\"" {
          if pending == "\"" {
            field.unicodeScalars.append("\"")
            pending = iterator.next()
          } else {
            quoted = false
          }
        } else {
          if scalar == "\n" { line += 1 }
          field.unicodeScalars.append(scalar)
        }
        continue
      }
      switch scalar {
      case "\"":
        guard field.isEmpty && !wasQuoted else {
          throw InputError("line \(line) has a quote inside a field that does not start with one")
        }
        quoted = true
        wasQuoted = true
      case ",":
        fields.append(field)
        field = ""
        wasQuoted = false
      case "\r" where pending == "\n":
        break
      case "\n":
        endRow()
        line += 1
        rowLine = line
      default:
        if wasQuoted && !quoted {
          throw InputError("line \(line) has text after a field's closing quote")
        }
        field.unicodeScalars.append(scalar)
      }
    }
    guard !quoted else {
      throw InputError("line \(rowLine) opens a quote that is never closed")
    }
    if !field.isEmpty || !fields.isEmpty || wasQuoted { endRow() }
    return rows
  }
}
