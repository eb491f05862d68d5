import FoundationEssentials

/// How `nudge status` writes a `PanelStatus` for the bar that reads it: plain text, Nudge's
/// JSON, waybar's custom-module JSON (Pango markup), i3blocks' JSON block (`format=json`: a
/// line an update, as a persistent block needs), polybar's line
/// with its colour tags, or xfce4-genmon's tags (text, tooltip, click). Every name in it is escaped as the bar needs: control and
/// bidi characters always, markup for waybar, polybar's `%{` tags for polybar.
public enum PanelFormat: String, CaseIterable, Sendable {
  case text, json, waybar, i3blocks, polybar, genmon

  /// Each state's colour for the bars that take one (i3blocks, polybar).
  public static func colour(_ state: PanelStatus.State) -> String {
    switch state {
    case .due: "#E5C07B"
    case .done: "#98C379"
    case .paused: "#61AFEF"
    case .overdue: "#E06C75"
    }
  }

  /// What the bar reads: one line, without a trailing newline.
  public func render(_ status: PanelStatus) -> String {
    let text = VisibleText.escaped(status.text)
    let tooltip = status.tooltip.map { VisibleText.escaped($0) }
    switch self {
    case .text:
      return text
    case .json:
      return Self.compact([
        "text": .string(text), "tooltip": .lines(tooltip), "class": .string(status.state.rawValue),
        "streak": .number(status.streak), "habits_left": .number(status.habitsLeft),
        "next": .string(status.next.url),
      ])
    case .waybar:
      // waybar reads text and tooltip as Pango markup; class and alt style the module
      return Self.compact([
        "text": .string(Self.markup(status.text)),
        "tooltip": .string(status.tooltip.map(Self.markup).joined(separator: "\n")),
        "class": .string(status.state.rawValue), "alt": .string(status.state.rawValue),
      ])
    case .i3blocks:
      // a block of i3bar's protocol: its text, a short one for a narrow bar, its colour
      // plain text even where the bar's config says markup=pango
      return Self.compact([
        "full_text": .string(text),
        "short_text": .string(status.state == .paused ? "⏸" : "🔥 \(status.streak)"),
        "color": .string(Self.colour(status.state)), "markup": .string("none"),
      ])
    case .polybar:
      // polybar reads %{…} as its tags: a name's own is broken apart
      let plain = text.replacing("%{", with: "% {")
      return "%{F\(Self.colour(status.state))}\(plain)%{F-}"
    case .genmon:
      // xfce4-genmon reads its tags' text as Pango markup; a click runs the command
      return "<txt>\(Self.markup(status.text))</txt>"
        + "<tool>\(status.tooltip.map(Self.markup).joined(separator: "&#10;"))</tool>"
        + "<txtclick>nudge status --open</txtclick>"
    }
  }

  static func markup(_ text: String) -> String { VisibleText.escapedForMarkup(text) }

  /// A value of the JSON a bar reads.
  enum Value {
    case string(String)
    case number(Int)
    case lines([String])

    /// The value as JSON text.
    var json: String {
      switch self {
      case .string(let text): Self.quoted(text)
      case .number(let n): String(n)
      case .lines(let lines): "[" + lines.map(Self.quoted).joined(separator: ",") + "]"
      }
    }

    /// `text` as a JSON string: `"` and `\` escaped, control characters as `\n`, `\t` or
    /// `\u00XX`; everything else as it is (UTF-8, `/` unescaped), as JSONEncoder writes it.
    /// Written by hand: JSONEncoder's dynamic casts scan every protocol conformance of the
    /// binary at its first use, a millisecond of a status bar's every start.
    static func quoted(_ text: String) -> String {
      var out = "\""
      out.reserveCapacity(text.utf8.count + 2)
      for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\u{08}": out += "\\b"
        case "\u{0C}": out += "\\f"
        case _ where scalar.value < 0x20:
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
      }
      return out + "\""
    }
  }

  /// One line of JSON, its keys sorted: what a bar reads a line at a time.
  static func compact(_ object: [String: Value]) -> String {
    "{"
      + object.sorted { $0.key < $1.key }.map { Value.quoted($0.key) + ":" + $0.value.json }
      .joined(separator: ",") + "}"
  }
}
