import NudgeCore

/// The tray icon of each state: its name in the hicolor theme (`nudge-due`, `nudge-done`,
/// `nudge-paused`; an overdue day shows the due one, the item's status asking attention), and
/// the same drawn as pixels for a panel without the theme's icon: a ring in the state's
/// colour, filled while something is left to do.
enum TrayIcon {
  static func name(_ state: PanelStatus.State) -> String {
    switch state {
    case .due, .overdue: "nudge-due"
    case .done: "nudge-done"
    case .paused: "nudge-paused"
    }
  }

  /// StatusNotifierItem's `a(iiay)`: width, height, ARGB32 pixels in network byte order.
  static func pixmaps(_ state: PanelStatus.State) -> BusValue {
    .array(
      element: "(iiay)",
      [22, 32].map { size in
        .structure([
          .int32(Int32(size)), .int32(Int32(size)),
          .array(element: "y", pixels(state, size: size).map { .byte($0) }),
        ])
      })
  }

  static func pixels(_ state: PanelStatus.State, size: Int) -> [UInt8] {
    let colour: (UInt8, UInt8, UInt8) =
      switch state {
      case .due: (0xE5, 0xC0, 0x7B)
      case .overdue: (0xE0, 0x6C, 0x75)
      case .done: (0x98, 0xC3, 0x79)
      case .paused: (0x61, 0xAF, 0xEF)
      }
    let filled = state == .due || state == .overdue
    var bytes: [UInt8] = []
    bytes.reserveCapacity(size * size * 4)
    let centre = Double(size - 1) / 2
    let outer = Double(size) / 2 - 1
    let inner = outer - Double(size) / 7
    for y in 0..<size {
      for x in 0..<size {
        let d =
          ((Double(x) - centre) * (Double(x) - centre)
          + (Double(y) - centre) * (Double(y) - centre)).squareRoot()
        let on = d <= outer && (filled || d >= inner)
        bytes += on ? [0xFF, colour.0, colour.1, colour.2] : [0, 0, 0, 0]
      }
    }
    return bytes
  }
}
