import CompositionGraph
import Looks
import MediaFormat
import ProjectCompiler
import TransitionKernels

/// One table of docs/format.md made from a catalogue's declarations, between two marker
/// comments that name it. The prose around the tables is written by hand.
struct FormatTable {
    let catalogue: Catalogue
    /// The name in the markers: `transitions`.
    let name: String
    /// The table's lines, its header first.
    let lines: [String]

    /// The line before the table; only its start up to the name is looked for.
    var startMarker: String { startPrefix + "from \(catalogue.source) by scripts/generate-format; edit that, not this table -->" }
    var startPrefix: String { "<!-- generated: \(name), " }
    var endMarker: String { "<!-- end generated: \(name) -->" }

    /// What the markers hold: the table with a blank line either side.
    var text: String { ([""] + lines + [""]).joined(separator: "\n") }

    static var all: [FormatTable] { [presets, transitions, looks, easings, namedAnimations] }

    private static func row(_ cells: String...) -> String { "| " + cells.joined(separator: " | ") + " |" }

    private static func header(_ cells: String...) -> [String] {
        ["| " + cells.joined(separator: " | ") + " |", "|" + cells.map { _ in "---|" }.joined()]
    }

    static var presets: FormatTable {
        FormatTable(catalogue: .presets, name: "presets",
                    lines: header("codec", "`video.preset`") + VideoCodec.allCases.map { codec in
                        row("`\(codec.rawValue)`", codec.presets.isEmpty ? "none" : codec.presets.map { "`\($0)`" }.joined(separator: ", "))
                    })
    }

    static var transitions: FormatTable {
        FormatTable(catalogue: .transitions, name: "transitions",
                    lines: header("transition", "gl-transitions", "parameters", "what it shows") + Transition.Kind.allCases.map { kind in
                        let declaration = kind.kernel?.declaration
                        let parameters = declaration?.parameters.map { p in
                            "`\(p.name)` (" + [p.range.map { decimal($0.lowerBound) + "…" + decimal($0.upperBound) },
                                                 p.defaultValue.isPicture ? "required" : "default " + text(of: p.defaultValue)]
                                .compactMap { $0 }.joined(separator: ", ") + "): " + p.summary
                        }
                        return row("`\(kind.rawValue)`", declaration.map { "`\($0.glName)`" } ?? "", parameters?.joined(separator: "; ") ?? "", kind.summary)
                    })
    }

    /// A parameter's value as a project writes it: `0.3`, `true`, `[0.5, 0.5]`, `"#1a1a1a"`.
    static func text(of value: TransitionValue) -> String {
        switch value {
        case .number(let v): number(v)
        case .integer(let v): String(v)
        case .boolean(let v): String(v)
        case .color(let c):
            "\"#" + [c.x, c.y, c.z].map { hexByte($0) }.joined() + (c.w < 1 ? hexByte(c.w) : "") + "\""
        case .vector(let v): "[\(number(v.x)), \(number(v.y))]"
        case .picture: "wipe"
        }
    }

    /// A number in JSON's form, shortest: `0.3`, `1`, `-2`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    private static func hexByte(_ fraction: Double) -> String {
        let byte = Int((min(max(fraction, 0), 1) * 255).rounded())
        return String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
    }

    static var easings: FormatTable {
        FormatTable(catalogue: .easings, name: "easings",
                    lines: header("ease", "the way to the next keyframe") + Easing.named.map { row("`\($0.name)`", $0.summary) })
    }

    static var namedAnimations: FormatTable {
        FormatTable(catalogue: .namedAnimations, name: "named animations",
                    lines: header("name", "on", "keyframes") + NamedAnimation.all.map { row("`\($0.key.rawValue): \($0.name)`", $0.on, $0.keyframes) })
    }

    static var looks: FormatTable {
        FormatTable(catalogue: .looks, name: "filters",
                    lines: header("type", "keys", "meaning") + Look.all.map { look in
                        row("`\(look.name)`", look.parameters.map(keys).joined(separator: ", "), look.documentation)
                    })
    }

    /// `` `temperature` (1000…40000 K, default 6500) ``.
    private static func keys(_ parameter: LookParameter) -> String {
        var notes: [String] = []
        switch parameter.kind {
        case .number(let value, _):
            guard let range = parameter.range else { break }
            notes.append([decimal(range.lowerBound) + "…" + decimal(range.upperBound), parameter.note].compactMap { $0 }.joined(separator: " "))
            if !parameter.required { notes.append("default " + decimal(value)) }
        case .color:
            notes += [parameter.note].compactMap { $0 }
        case .lut:
            notes.append("a `.cube` file, relative to the project")
        }
        return "`\(parameter.name)`" + (notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")")
    }

    /// `0.4`, `6500`, `−1` (with a minus sign, as the docs write it).
    private static func decimal(_ value: Double) -> String {
        if value < 0 { return "−" + decimal(-value) }
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}
