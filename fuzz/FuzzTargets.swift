// libFuzzer entry point for Nudge's parsers, compiled together with the NudgeCore sources by
// `scripts/fuzz` (swiftc -sanitize=fuzzer,address). NUDGE_FUZZ_TARGET picks the parser:
// `link` (DeepLink.parse), `calendar` (CalendarSpec.parse, normalisation and the next elapse),
// `import` (ExportDocument.decode and validate; what is accepted encodes and reads back equal),
// `plaintime` (PlainTime: the plain times `schedule set` takes, and their description) or
// `lineeditor` (KeyDecoder and LineBuffer: any bytes typed or pasted into a prompt). Refusals
// are expected; a crash, a sanitizer report or a timeout is a bug.
import Foundation

enum FuzzTarget: String {
  case link, calendar, `import`, plaintime, lineeditor

  static let chosen: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["NUDGE_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
      fatalError("set NUDGE_FUZZ_TARGET to link, calendar, import, plaintime or lineeditor")
    }
    return target
  }()
}

let berlin: ZoneRules =
  FileManager.default.contents(atPath: "/usr/share/zoneinfo/Europe/Berlin")
  .flatMap { ZoneRules(tzif: [UInt8]($0), name: "Europe/Berlin") } ?? .utc

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let data = Data(bytes: bytes, count: count)
  switch FuzzTarget.chosen {
  case .link:
    let text = String(decoding: data, as: UTF8.self)
    if let link = try? DeepLink.parse(text) {
      // an accepted link must be one of the grammar's and round-trip to its arguments
      precondition(text.hasPrefix("nudge://") && text.utf8.count <= 256)
      precondition(!link.arguments.isEmpty)
    }
  case .calendar:
    let text = String(decoding: data, as: UTF8.self)
    if let spec = try? CalendarSpec.parse(
      text, localZone: berlin, zoneExists: { $0 == "Europe/Berlin" || $0 == "UTC" })
    {
      let again = try? CalendarSpec.parse(
        spec.normalized, localZone: berlin, zoneExists: { $0 == "Europe/Berlin" || $0 == "UTC" })
      precondition(again?.normalized == spec.normalized, "normalisation is not stable")
      _ = spec.nextElapse(
        after: 1_795_000_000, localZone: berlin,
        zoneFor: { $0 == "Europe/Berlin" ? berlin : $0 == "UTC" ? .utc : nil })
    }
  case .import:
    if let document = try? ExportDocument.decode(data) {
      // what import takes, export writes and import takes back, unchanged
      let written = try! document.encoded()
      let again = try? ExportDocument.decode(written)
      precondition(again == document, "an accepted document does not read back")
    }
  case .plaintime:
    let text = String(decoding: data, as: UTF8.self)
    if let expression = PlainTime.expression(text) {
      // a plain time becomes an expression the calendar parser takes
      precondition(
        (try? CalendarSpec.parse(expression, localZone: berlin, zoneExists: { _ in false }))
          != nil, "'\(expression)' from a plain time does not parse")
      _ = PlainTime.describe(expression)
    }
    for slot in Slot.allCases {
      _ = PlainTime.expression(text, for: slot, current: "Sun *-*-* 18:00:00")
    }
    _ = PlainTime.describe(text)
  case .lineeditor:
    var rest = data[...]
    var buffer = LineBuffer(history: ["earlier answer"])
    while let key = KeyDecoder.next({ rest.popFirst() }) {
      let pending = !rest.isEmpty && rest.first! % 3 != 0
      switch buffer.apply(key, inputPending: pending) {
      case .done(let text): precondition(text.count <= LineBuffer.maxCharacters)
      default: break
      }
      precondition(buffer.cursor >= 0 && buffer.cursor <= buffer.line.count)
      precondition(buffer.line.count <= LineBuffer.maxCharacters)
      _ = VisibleText.escaped(buffer.text)
    }
  }
  return 0
}
