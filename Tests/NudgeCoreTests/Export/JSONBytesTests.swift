import Testing

@testable import NudgeCore

/// The byte checks under the export reader.
@Suite struct JSONBytesTests {
  @Test func asciiIsFoundEightBytesAtATimeAsByteByByte() {
    // every length up to 40, one high byte at every place (and none)
    for length in 0...40 {
      let plain = [UInt8](repeating: UInt8(ascii: "a"), count: length)
      #expect(JSONBytes.isASCII(plain))
      for place in 0..<length {
        var bytes = plain
        bytes[place] = 0x80 | UInt8(place % 0x7F)
        #expect(!JSONBytes.isASCII(bytes), "\(length) \(place)")
        #expect(JSONBytes.isASCII(bytes) == bytes.allSatisfy { $0 < 0x80 })
      }
    }
    #expect(JSONBytes.isUTF8(Array("café".utf8)))
    #expect(!JSONBytes.isUTF8([0x61, 0xC3, 0x28]))
  }
}
