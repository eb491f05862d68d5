/// A command's words after its name, read without the argument parser when they are plain:
/// positional words, known flags, and known options with their value as the next word or
/// after `=`, each at most once. The parser's first use reflects the whole command tree, a
/// third of a short command's time; the commands run most (`schedule preview`, `notify`) are
/// read here, and whatever is not plain (`--help`, an unknown or repeated option, a missing
/// value) is nil and left to the parser, which says what is wrong.
struct PlainWords {
  var positionals: [String] = []
  var options: [String: String] = [:]
  /// (Arrays, not sets, here and below: a handful of words each, and a process that builds
  /// no `Set<String>` otherwise pays a third of a millisecond to make its first.)
  var flags: [String] = []

  /// `unconditional`: the options whose value may start with `-` (as the parser's
  /// `.unconditional` takes it); any other option's value may not.
  init?(
    _ words: ArraySlice<String>, options known: [String], flags knownFlags: [String],
    unconditional: [String] = []
  ) {
    var index = words.startIndex
    while index < words.endIndex {
      let word = words[index]
      index += 1
      guard word.hasPrefix("-") else {
        positionals.append(word)
        continue
      }
      if knownFlags.contains(word) {
        guard !flags.contains(word) else { return nil }
        flags.append(word)
        continue
      }
      var name = word
      let value: String
      if let equals = word.firstIndex(of: "=") {
        name = String(word[..<equals])
        value = String(word[word.index(after: equals)...])
      } else {
        guard index < words.endIndex else { return nil }
        value = words[index]
        index += 1
        if value.hasPrefix("-") && !unconditional.contains(name) { return nil }
      }
      guard known.contains(name), options.updateValue(value, forKey: name) == nil else {
        return nil
      }
    }
  }

  /// The option's value as a number (as the parser reads one: `Int("…")`, `Double("…")`):
  /// `.some(nil)` when it is not given, nil when it is given but is not a number.
  func number<Number: LosslessStringConvertible>(_ name: String, _ type: Number.Type)
    -> Number??
  {
    guard let text = options[name] else { return .some(nil) }
    return Number(text).map { .some($0) }
  }
}
