import NudgeCore
import Testing

@testable import NudgeLinux

@Suite struct BusWireTests {
  /// Every type, in structures, arrays, dictionaries and variants, as one body.
  static let everyType: [BusValue] = [
    .byte(7), .boolean(true), .int16(-2), .uint16(65535), .int32(-70000), .uint32(4_000_000_000),
    .int64(-1 << 40), .uint64(1 << 63), .double(2.5), .unixFD(0), .string("héllo ✓"),
    .objectPath("/org/freedesktop/Notifications"), .signature("a{sv}"),
    .array(element: "x", [.int64(1), .int64(2)]), .array(element: "s", []),
    .structure([.byte(1), .int64(9), .string("s")]),
    .stringVariants([("urgency", .byte(1)), ("sender-pid", .int64(42)), ("b", .boolean(false))]),
    .variant(.variant(.array(element: "(yv)", [.structure([.byte(1), .variant(.uint32(3))])]))),
  ]

  @Test func aMessageOfEveryTypeReadsBackAsItWasWritten() throws {
    let message = BusMessage.call(
      serial: 9, destination: "org.freedesktop.Notifications", path: "/a/b", interface: "x.y",
      member: "Z", Self.everyType)
    let bytes = message.encoded()
    #expect(bytes[0] == UInt8(ascii: "l"))
    #expect(try BusMessage.length(ofMessageAt: bytes[...]) == bytes.count)
    #expect(try BusMessage.decode(bytes[...]) == message)
  }

  /// The bytes `Hello` is, as the specification lays them out (and dbus-send sends them).
  @Test func helloIsLaidOutAsTheSpecificationSays() {
    let hello = BusMessage.call(
      serial: 1, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
      interface: "org.freedesktop.DBus", member: "Hello"
    ).encoded()
    // 12 fixed bytes: order, type 1 (call), no flags, version 1, body 0 bytes, serial 1
    #expect(Array(hello[0..<12]) == [0x6c, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0])
    // the fields array: path (1, "o"), then its string padded to 8 for the next field
    #expect(Array(hello[16..<20]) == [1, 1, UInt8(ascii: "o"), 0])
    #expect(Array(hello[20..<24]) == [21, 0, 0, 0])
    #expect(String(decoding: hello[24..<45], as: UTF8.self) == "/org/freedesktop/DBus")
    #expect(hello.count % 8 == 0)
    let fieldsLength = Int(hello[12]) | Int(hello[13]) << 8
    #expect(hello.count == (16 + fieldsLength + 7) / 8 * 8)
  }

  @Test func aBigEndianReplyIsRead() throws {
    // a method return, serial 2, reply to 5, body "u" 134, written big-endian by hand
    var bytes: [UInt8] = [UInt8(ascii: "B"), 2, 0, 1, 0, 0, 0, 4, 0, 0, 0, 2]
    let fields: [UInt8] = [
      5, 1, UInt8(ascii: "u"), 0, 0, 0, 0, 5, 8, 1, UInt8(ascii: "g"), 0, 1,
      UInt8(ascii: "u"), 0,
    ]
    bytes += [0, 0, 0, UInt8(fields.count)] + fields
    while bytes.count % 8 != 0 { bytes.append(0) }
    bytes += [0, 0, 0, 134]
    let message = try BusMessage.decode(bytes[...])
    #expect(message.kind == .methodReturn && message.replySerial == 5)
    #expect(message.body == [.uint32(134)])
  }

  @Test func aStringIsSentUpToItsFirstNulAsLibnotifySendsIt() throws {
    var writer = BusWriter()
    writer.write(.string("before\0after"))
    var reader = BusReader(writer.bytes[...], bigEndian: false)
    #expect(try reader.read(.basic(UInt8(ascii: "s"))) == .string("before"))
  }

  /// What another process sends is checked as it is read: every one of these is an error,
  /// none a crash or a read past the end.
  @Test func whatIsNotAMessageIsAnErrorNotACrash() throws {
    let good = BusMessage.call(
      serial: 3, destination: "d.e", path: "/p", interface: "i.j", member: "M",
      [.string("text"), .array(element: "u", [.uint32(1)]), .variant(.boolean(true))]
    ).encoded()
    // every cut of a good message
    for end in 0..<good.count {
      let cut = good[..<end]
      if let length = try? BusMessage.length(ofMessageAt: cut), length <= cut.count {
        Issue.record("a cut at \(end) reads as whole")
      }
      #expect(throws: BusWireError.self) { try BusMessage.decode(cut) }
    }
    // every byte of it flipped: read or refused, never a crash
    for index in good.indices {
      var bad = good
      bad[index] ^= 0xff
      _ = try? BusMessage.length(ofMessageAt: bad[...])
      _ = try? BusMessage.decode(bad[...])
    }
    func body(_ signature: String, _ bytes: [UInt8]) throws -> [BusValue] {
      var reader = BusReader(bytes[...], bigEndian: false)
      return try BusType.parse(signature.utf8).map { try reader.read($0) }
    }
    #expect(throws: BusWireError.self) { try body("b", [2, 0, 0, 0]) }
    #expect(throws: BusWireError.self) { try body("s", [5, 0, 0, 0, 0x61, 0]) }
    #expect(throws: BusWireError.self) { try body("s", [1, 0, 0, 0, 0xff, 0]) }
    #expect(throws: BusWireError.self) { try body("s", [1, 0, 0, 0, 0x61, 0x61]) }
    #expect(throws: BusWireError.self) { try body("au", [0xff, 0xff, 0xff, 0x7f]) }
    #expect(throws: BusWireError.self) { try body("au", [2, 0, 0, 0, 1, 0, 0, 0]) }
    #expect(throws: BusWireError.self) { try body("v", [1, UInt8(ascii: "!"), 0]) }
    #expect(throws: BusWireError.self) {
      try body("v", [2, UInt8(ascii: "u"), UInt8(ascii: "u"), 0])
    }
    // a variant holding a variant holding … : refused past 64
    let deep: [UInt8] = Array(repeating: [1, UInt8(ascii: "v"), 0], count: 100).flatMap { $0 }
    #expect(throws: BusWireError.self) { try body("v", deep) }
    #expect(throws: BusWireError.self) { try BusType.parse("a".utf8) }
    #expect(throws: BusWireError.self) { try BusType.parse("(".utf8) }
    #expect(throws: BusWireError.self) { try BusType.parse("()".utf8) }
    #expect(throws: BusWireError.self) { try BusType.parse("a{vs}".utf8) }
    #expect(throws: BusWireError.self) { try BusType.parse("a{sss}".utf8) }
    #expect(throws: BusWireError.self) {
      try BusType.parse((String(repeating: "a", count: 33) + "y").utf8)
    }
    #expect(throws: BusWireError.self) { try BusType.parse(String(repeating: "(", count: 33).utf8) }
    #expect(throws: BusWireError.self) {
      try BusType.parse(String(repeating: "y", count: 256).utf8)
    }
    // a header that says more than Nudge reads
    var huge = good
    huge[4...7] = [0, 0, 0, 0x10]
    #expect(throws: BusWireError.self) { try BusMessage.length(ofMessageAt: huge[...]) }
  }

  @Test func theSessionBusIsFoundWhereGLibAndSdBusLook() {
    func endpoint(_ address: String?, runtime: String? = nil) -> SessionBusSocket.Endpoint? {
      var environment: [String: String] = [:]
      environment["DBUS_SESSION_BUS_ADDRESS"] = address
      environment["XDG_RUNTIME_DIR"] = runtime
      return SessionBusSocket.endpoint(environment: environment)
    }
    #expect(endpoint("unix:path=/run/user/1000/bus") == .path("/run/user/1000/bus"))
    #expect(endpoint("unix:path=/tmp/dbus-x,guid=ab12") == .path("/tmp/dbus-x"))
    #expect(endpoint("unix:guid=ab12,abstract=/tmp/dbus-y") == .abstract("/tmp/dbus-y"))
    #expect(endpoint("unix:path=/tmp/a%20b%2cc") == .path("/tmp/a b,c"))
    #expect(endpoint("tcp:host=localhost,port=1;unix:path=/x") == .path("/x"))
    // left to GLib: other transports only; nothing it could hold
    #expect(endpoint("tcp:host=localhost,port=1") == nil)
    #expect(endpoint("unix:tmpdir=/tmp") == nil)
    #expect(endpoint("unix:path=/tmp/%zz") == nil)
    #expect(endpoint("unix:path=/tmp/%00") == nil)
    #expect(endpoint("unix:path=/" + String(repeating: "x", count: 200)) == nil)
    #expect(endpoint("garbage") == nil)
    // unset or empty: the runtime directory's bus
    #expect(endpoint(nil, runtime: "/run/user/7") == .path("/run/user/7/bus"))
    #expect(endpoint("", runtime: "/run/user/7") == .path("/run/user/7/bus"))
    #expect(endpoint(nil, runtime: "relative") == nil)
    #expect(endpoint(nil) == nil)
  }

  @Test func aNotificationIsSentWithTheArgumentsAndHintsLibnotifySends() {
    var note = DesktopNotification(title: "A <b>", body: "one\ntwo", actions: [])
    note.link = nil
    let arguments = BusPost.arguments(of: note, hyperlinks: false)
    #expect(arguments.map(\.signature).joined() == "susssasa{sv}i")
    #expect(arguments[0] == .string("nudge") && arguments[1] == .uint32(0))
    #expect(arguments[3] == .string(VisibleText.escaped("A <b>")))
    #expect(arguments[7] == .int32(-1))
    guard case .array(_, let hints) = arguments[6] else {
      Issue.record("no hints")
      return
    }
    let names = hints.compactMap { entry -> String? in
      if case .dictEntry(.string(let name), _) = entry { name } else { nil }
    }
    #expect(names == ["category", "desktop-entry", "urgency", "sender-pid"])
    #expect(hints[2] == .dictEntry(.string("urgency"), .variant(.byte(1))))
  }
}
