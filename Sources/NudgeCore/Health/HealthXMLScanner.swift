/// Reads Apple Health's `export.xml` as it streams past, a chunk at a time, and hands over the
/// start and end tags of the elements asked for, with their attributes. It holds only the
/// construct being read (a tag, a comment, the DTD), never the file.
///
/// Real exports are not clean XML, and it reads them as they are: the internal DTD that iOS 16
/// writes with an `<!ATTLIST` missing its `>` is skipped whole, unparsed; attribute names with
/// spaces (`Health Mate App Version="2.6.0"`) are names; a raw control character in a value is
/// kept for the caller to judge. It never expands an entity but the five XML defines and
/// character references, and never reads an external one: no billion laughs, no XXE.
public struct HealthXMLScanner {
  /// One tag of an element the caller asked for.
  public struct Tag: Equatable, Sendable {
    public var name: String
    /// In the order written; names as written (spaces kept), values with the five entities
    /// and character references read.
    public var attributes: [(name: String, value: String)]
    /// The byte offset of its `<` in the file.
    public var offset: Int

    public static func == (a: Tag, b: Tag) -> Bool {
      a.name == b.name && a.offset == b.offset && a.attributes.count == b.attributes.count
        && zip(a.attributes, b.attributes).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// The value of attribute `name`, nil when it has none.
    public subscript(name: String) -> String? {
      attributes.first { $0.name == name }?.value
    }
  }

  /// What the scanner hands over.
  public enum Event: Equatable, Sendable {
    /// An element asked for opens (a self-closing one is followed at once by its `end`).
    case start(Tag)
    case end(name: String, offset: Int)
  }

  /// Why a file is not one the scanner reads to its end.
  public struct Refusal: Error, Equatable, Sendable {
    /// The byte offset where the file stops making sense: the `<` of a tag it ends inside,
    /// or its end when it ends between tags with elements open.
    public var offset: Int
    public var message: String
  }

  /// The longest tag (or comment, processing instruction, CDATA section) read; the DTD may be
  /// as long as `maxDoctype`. Past these a file is refused: memory stays bounded whatever the
  /// file holds.
  public static let maxConstruct = 1 << 20
  public static let maxDoctype = 4 << 20
  /// The deepest nesting read (Apple's exports nest four deep) and the longest element name.
  public static let maxDepth = 64
  public static let maxName = 256

  /// The element names whose tags are handed over.
  public let wanted: Set<String>
  private var pending: [UInt8] = []
  /// The file offset of `pending`'s first byte.
  private var base = 0
  /// The elements open, outermost first.
  private var open: [String] = []
  private var sawRoot = false
  /// Why reading stopped, once it has: a scanner that refused reads nothing more.
  private var stopped: Refusal? = nil
  private var ended = false

  /// The attributes whose values are read (nil: all); the others are checked and passed over,
  /// no string made of them (an export's `creationDate` and `sourceVersion` on every record).
  public let keptAttributes: Set<String>?

  public init(wanted: Set<String>, keptAttributes: Set<String>? = nil) {
    self.wanted = wanted
    self.keptAttributes = keptAttributes
  }

  /// Bytes read so far, whole constructs handed over.
  public var offset: Int { base }

  /// Reads `chunk`, handing over each whole tag asked for as it completes. A construct not
  /// finished by the chunk's end is scanned again from its start with the next one: fed a MiB
  /// at a time, a DTD at its 4 MiB limit costs 10 MiB of scanning, and an ordinary file is read
  /// once.
  public mutating func feed(_ chunk: some Collection<UInt8>, _ handle: (Event) throws -> Void)
    throws
  {
    if let stopped { throw stopped }
    // the bytes held out of `self` while read: the reading changes the scanner's own state
    var buffer = pending
    pending = []
    buffer.append(contentsOf: chunk)
    let used: Int
    do {
      used = try buffer.withUnsafeBufferPointer { bytes in
        var at = 0
        while at < bytes.count {
          guard let open = Self.index(of: 0x3C, in: bytes, from: at) else { return bytes.count }
          guard let end = try construct(bytes, at: open, handle) else { return open }
          at = end
        }
        return at
      }
    } catch {
      stopped =
        error as? Refusal ?? Refusal(offset: base, message: "reading stopped: \(error)")
      throw error
    }
    if used > 0 {
      buffer.removeFirst(used)
      base += used
    }
    pending = buffer
    if pending.count > Self.maxDoctype {
      throw Refusal(offset: base, message: "a tag runs on past \(Self.maxDoctype) bytes")
    }
  }

  /// The file has ended: refused when it ends inside a tag or an element, or holds none.
  public func finish() throws {
    if let stopped { throw stopped }
    if let open = pending.firstIndex(of: 0x3C) {
      throw Refusal(offset: base + open, message: "the file ends inside a tag")
    }
    guard sawRoot else {
      throw Refusal(offset: base + pending.count, message: "the file holds no element")
    }
    guard open.isEmpty else {
      throw Refusal(
        offset: base + pending.count,
        message: "the file ends with <\(open.joined(separator: "><"))> still open")
    }
  }

  static func index(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int)
    -> Int?
  {
    let at = next(byte, in: bytes, from: from)
    return at < bytes.count ? at : nil
  }

  private static func starts(
    _ bytes: UnsafeBufferPointer<UInt8>, at: Int, with prefix: StaticString
  ) -> Bool? {
    let count = prefix.utf8CodeUnitCount
    let p = prefix.utf8Start
    for i in 0..<count {
      guard at + i < bytes.count else { return nil }  // not known yet
      if bytes[at + i] != p[i] { return false }
    }
    return true
  }

  /// Finds `terminator` from `from`; nil when the bytes so far do not hold it.
  private static func find(
    _ terminator: StaticString, in bytes: UnsafeBufferPointer<UInt8>, from: Int
  ) -> Int? {
    let count = terminator.utf8CodeUnitCount
    let t = terminator.utf8Start
    var at = from
    while at + count <= bytes.count {
      if bytes[at] == t[0] {
        var i = 1
        while i < count && bytes[at + i] == t[i] { i += 1 }
        if i == count { return at }
      }
      at += 1
    }
    return nil
  }

  /// Reads the construct opening at `open` (a `<`); returns the index after it, or nil when
  /// the bytes so far end before it does.
  private mutating func construct(
    _ bytes: UnsafeBufferPointer<UInt8>, at open: Int, _ handle: (Event) throws -> Void
  ) throws -> Int? {
    let offset = base + open
    func tooLong(_ what: String, limit: Int) -> Refusal {
      Refusal(offset: offset, message: "\(what) runs on past \(limit) bytes")
    }
    /// `end` (the index after the construct; nil: not in the bytes yet) held to `limit`,
    /// whole or not: the same file is refused whatever its chunks.
    func bounded(_ end: Int?, _ what: String, _ limit: Int) throws -> Int? {
      if let end {
        guard end - open <= limit else { throw tooLong(what, limit: limit) }
        return end
      }
      if bytes.count - open > limit { throw tooLong(what, limit: limit) }
      return nil
    }
    guard open + 1 < bytes.count else { return nil }
    if bytes[open + 1] == 0x3F {  // <? … ?>
      return try bounded(
        Self.find("?>", in: bytes, from: open + 2).map { $0 + 2 }, "a processing instruction",
        Self.maxConstruct)
    }
    if bytes[open + 1] == 0x21 {  // <!
      switch Self.starts(bytes, at: open, with: "<!--") {
      case nil: return nil
      case true?:
        return try bounded(
          Self.find("-->", in: bytes, from: open + 4).map { $0 + 3 }, "a comment",
          Self.maxConstruct)
      case false?: break
      }
      switch Self.starts(bytes, at: open, with: "<![CDATA[") {
      case nil: return nil
      case true?:
        return try bounded(
          Self.find("]]>", in: bytes, from: open + 9).map { $0 + 3 }, "a CDATA section",
          Self.maxConstruct)
      case false?: break
      }
      switch Self.starts(bytes, at: open, with: "<!DOCTYPE") {
      case nil: return nil
      case true?:
        guard !sawRoot else {
          throw Refusal(offset: offset, message: "a DOCTYPE inside the document")
        }
        return try bounded(Self.doctypeEnd(bytes, from: open + 9), "the DTD", Self.maxDoctype)
      case false?:
        throw Refusal(offset: offset, message: "'<!' starts nothing XML knows")
      }
    }
    // a tag: its end is the first `>` outside a quoted value
    var at = open + 1
    var quote: UInt8 = 0
    while at < bytes.count {
      // sixteen bytes at a time to the next byte that matters (a quote, `>` or `<`; inside a
      // quoted value, its closing quote)
      at = quote != 0 ? Self.next(quote, in: bytes, from: at) : Self.nextInTag(bytes, from: at)
      guard at < bytes.count else { break }
      let c = bytes[at]
      if quote != 0 {
        if c == quote { quote = 0 }
      } else if c == 0x22 || c == 0x27 {
        quote = c
      } else if c == 0x3E {
        break
      } else if c == 0x3C {
        throw Refusal(offset: base + at, message: "a '<' inside a tag")
      }
      at += 1
    }
    guard let end = try bounded(at < bytes.count ? at + 1 : nil, "a tag", Self.maxConstruct)
    else { return nil }
    try tag(UnsafeBufferPointer(rebasing: bytes[(open + 1)..<at]), offset: offset, handle)
    return end
  }

  /// The index after the DTD that starts after `<!DOCTYPE` at `from`: its internal subset (if
  /// any) skipped to the `]` that closes it outside quotes and comments, then its `>`. What
  /// is inside is never read: a broken declaration (iOS 16's) costs nothing, and no entity it
  /// declares is ever expanded.
  private static func doctypeEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
    var at = from
    var quote: UInt8 = 0
    var inSubset = false
    while at < bytes.count {
      let c = bytes[at]
      if quote != 0 {
        if c == quote { quote = 0 }
      } else if inSubset && c == 0x3C, starts(bytes, at: at, with: "<!--") != false {
        guard let end = find("-->", in: bytes, from: at + 4) else { return nil }
        at = end + 3
        continue
      } else if inSubset && c == 0x3C, starts(bytes, at: at, with: "<?") != false {
        guard let end = find("?>", in: bytes, from: at + 2) else { return nil }
        at = end + 2
        continue
      } else if c == 0x22 || c == 0x27 {
        quote = c
      } else if c == 0x5B && !inSubset {
        inSubset = true
      } else if c == 0x5D && inSubset {
        inSubset = false
      } else if c == 0x3E && !inSubset {
        return at + 1
      }
      at += 1
    }
    return nil
  }

  /// The index of the first `byte` from `from`, or `bytes.count`.
  static func next(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
    var at = from
    if let base = bytes.baseAddress {
      let wanted = SIMD16<UInt8>(repeating: byte)
      while at + 16 <= bytes.count {
        let chunk = UnsafeRawPointer(base + at).loadUnaligned(as: SIMD16<UInt8>.self)
        if any(chunk .== wanted) { break }
        at += 16
      }
    }
    while at < bytes.count && bytes[at] != byte { at += 1 }
    return at
  }

  /// The index of the first quote, `>` or `<` from `from`, or `bytes.count`.
  static func nextInTag(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
    var at = from
    if let base = bytes.baseAddress {
      let (double, single, close, open) = (
        SIMD16<UInt8>(repeating: 0x22), SIMD16<UInt8>(repeating: 0x27),
        SIMD16<UInt8>(repeating: 0x3E), SIMD16<UInt8>(repeating: 0x3C)
      )
      while at + 16 <= bytes.count {
        let chunk = UnsafeRawPointer(base + at).loadUnaligned(as: SIMD16<UInt8>.self)
        if any((chunk .== double) .| (chunk .== single) .| (chunk .== close) .| (chunk .== open)) {
          break
        }
        at += 16
      }
    }
    while at < bytes.count {
      let c = bytes[at]
      if c == 0x22 || c == 0x27 || c == 0x3E || c == 0x3C { break }
      at += 1
    }
    return at
  }

  static func isSpace(_ c: UInt8) -> Bool {
    c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D
  }

  /// A tag's bytes between `<` and `>`.
  private mutating func tag(
    _ inside: UnsafeBufferPointer<UInt8>, offset: Int, _ handle: (Event) throws -> Void
  ) throws {
    if inside.first == 0x2F {  // </name>
      var end = inside.count
      while end > 1 && Self.isSpace(inside[end - 1]) { end -= 1 }
      guard end > 1 else { throw Refusal(offset: offset, message: "an end tag without a name") }
      let name = String(decoding: UnsafeBufferPointer(rebasing: inside[1..<end]), as: UTF8.self)
      guard open.last == name else {
        throw Refusal(
          offset: offset,
          message: open.last.map { "</\(name)> where </\($0)> was to come" }
            ?? "</\(name)> with no element open")
      }
      open.removeLast()
      if open.isEmpty { ended = true }
      if wanted.contains(name) { try handle(.end(name: name, offset: offset)) }
      return
    }
    var nameEnd = 0
    while nameEnd < inside.count && !Self.isSpace(inside[nameEnd]) && inside[nameEnd] != 0x2F {
      nameEnd += 1
    }
    guard nameEnd > 0 else { throw Refusal(offset: offset, message: "a tag without a name") }
    guard !ended else {
      throw Refusal(offset: offset, message: "an element after the document's end")
    }
    sawRoot = true
    let selfClosing = inside.last == 0x2F
    let name = String(decoding: UnsafeBufferPointer(rebasing: inside[0..<nameEnd]), as: UTF8.self)
    guard nameEnd <= Self.maxName else {
      throw Refusal(offset: offset, message: "a name longer than \(Self.maxName) bytes")
    }
    if !selfClosing {
      guard open.count < Self.maxDepth else {
        throw Refusal(offset: offset, message: "elements nested deeper than \(Self.maxDepth)")
      }
      open.append(name)
    }
    guard wanted.contains(name) else { return }
    let body = UnsafeBufferPointer(
      rebasing: inside[nameEnd..<(selfClosing ? inside.count - 1 : inside.count)])
    let attributes = try Self.attributes(body, offset: offset, keeping: keptAttributes)
    try handle(.start(Tag(name: name, attributes: attributes, offset: offset)))
    if selfClosing { try handle(.end(name: name, offset: offset)) }
  }
}
