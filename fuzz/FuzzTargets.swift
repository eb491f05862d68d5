// libFuzzer entry point for Nudge's parsers, compiled together with the NudgeCore sources by
// `scripts/fuzz` (swiftc -sanitize=fuzzer,address). NUDGE_FUZZ_TARGET picks the parser:
// `link` (DeepLink.parse), `calendar` (CalendarSpec.parse, normalisation and the next elapse)
// or `import` (ExportDocument.decode and validate). Refusals are expected; a crash, a
// sanitizer report or a timeout is a bug.
import Foundation

enum FuzzTarget: String {
  case link, calendar, `import`

  static let chosen: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["NUDGE_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
      fatalError("set NUDGE_FUZZ_TARGET to link, calendar or import")
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
      _ = try? document.validate()
    }
  }
  return 0
}
