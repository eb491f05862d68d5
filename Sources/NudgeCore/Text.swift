/// Text helpers the standard library lacks (Foundation's are not linked in).
extension StringProtocol {
  /// The text without the characters at either end that match `drop`.
  public func trimming(where drop: (Character) -> Bool) -> String {
    guard let first = firstIndex(where: { !drop($0) }),
      let last = lastIndex(where: { !drop($0) })
    else { return "" }
    return String(self[first...last])
  }

  /// The text without spaces and tabs at either end (newlines kept), like Foundation's
  /// `trimmingCharacters(in: .whitespaces)`.
  public var trimmingSpaces: String { trimming { $0.isWhitespace && !$0.isNewline } }

  /// The text cut or padded with spaces to `width` characters, for columns.
  public func padded(to width: Int) -> String {
    count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
  }
}

/// The directory holding `path`: "." for a bare file name, "/" for a file at the root.
public func parentDirectory(of path: String) -> String {
  guard let slash = path.lastIndex(of: "/") else { return "." }
  return slash == path.startIndex ? "/" : String(path[..<slash])
}
